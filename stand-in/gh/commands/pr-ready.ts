import { atMostOneArgument, bool, played } from '../cli/args.js';
import { PR_COMMON_FLAGS, selectPr } from './common.js';
import { argumentRequiredWithRepo, baseRepo } from './repo-override.js';
import type { Command } from './types.js';

const spec: Command['spec'] = {
  name: 'pr ready',
  use: 'ready [<number> | <url> | <branch>]',
  help: {
    short: 'Mark a pull request as ready for review',
    long: `Mark a pull request as ready for review.

Without an argument, the pull request that belongs to the current branch
is marked as ready.

If supported by your plan, convert to draft with \`--undo\`
`,
  },
  flags: [
    played('undo', 'bool', undefined, 'Convert a pull request to "draft"'),
    ...PR_COMMON_FLAGS,
  ],
};

/** `gh pr ready [<number>|<url>|<branch>]` and `--undo`: messages on stderr only. */
export const prReady: Command = {
  spec,
  run(ctx, args) {
    const selector = atMostOneArgument(args);
    const undo = bool(args, 'undo');
    ctx.notes.marksReady = !undo;
    argumentRequiredWithRepo(spec, args, selector);
    const name = baseRepo(ctx, args, selector);
    const store = ctx.store();
    const pr = selectPr(ctx, store.read(), name, selector);
    ctx.notes.pr = pr.number;
    const ref = `${name.owner}/${name.name}#${pr.number}`;
    if (pr.state !== 'OPEN') {
      return {
        stderr: `X Pull request ${ref} is closed. Only draft pull requests can be marked as "ready for review"\n`,
        exitCode: 1,
      };
    }
    if (undo ? pr.draft : !pr.draft) {
      return {
        stderr: `! Pull request ${ref} is already ${undo ? '"in draft"' : '"ready for review"'}\n`,
      };
    }
    pr.draft = undo;
    pr.updated_at = ctx.now();
    store.changed();
    return {
      stderr: undo
        ? `✓ Pull request ${ref} is converted to "draft"\n`
        : `✓ Pull request ${ref} is marked as "ready for review"\n`,
    };
  },
};
