import { atMostOneArgument, bool, notPlayed, played } from '../cli/args.js';
import { PR_FIELDS, PR_FIELDS_NOT_PLAYED, pick, prFieldValue } from '../fields/index.js';
import {
  diffSource,
  JSON_FLAGS,
  jsonRequest,
  labelSource,
  PR_COMMON_FLAGS,
  numberOf,
  printJson,
  selectPr,
} from './common.js';
import { argumentRequiredWithRepo, baseRepo, repoOverride } from './repo-override.js';
import type { Command } from './types.js';

const spec: Command['spec'] = {
  name: 'pr view',
  use: 'view [<number> | <url> | <branch>]',
  help: {
    short: 'View a pull request',
    long: `Display the title, body, and other information about a pull request.

Without an argument, the pull request that belongs to the current branch
is displayed.

With \`--web\` flag, open the pull request in a web browser instead.
`,
  },
  jsonFields: PR_FIELDS,
  flags: [
    notPlayed('web', 'bool', 'w', 'Open a pull request in the browser'),
    played('comments', 'bool', 'c', 'View pull request comments'),
    ...JSON_FLAGS,
    ...PR_COMMON_FLAGS,
  ],
};

/** `gh pr view [<number>|<url>|<branch>]`: `key:\tvalue` lines then the body, or `--json`. */
export const prView: Command = {
  spec,
  run(ctx, args) {
    const selector = atMostOneArgument(args);
    const json = jsonRequest(args, PR_FIELDS, PR_FIELDS_NOT_PLAYED);
    argumentRequiredWithRepo(spec, args, selector);
    repoOverride(args);
    const repo = ctx.repo();
    // gh answers `--json number` for a number or URL without asking GitHub (shared/finder.go).
    const only = json && json.fields.length === 1 && json.fields[0] === 'number';
    const number = only ? numberOf(ctx, selector, repo.repoName()) : undefined;
    if (number !== undefined) {
      ctx.notes.pr = number;
      return { stdout: printJson({ number }, json?.jq) };
    }
    const name = baseRepo(ctx, args, selector);
    const state = ctx.store().read();
    const pr = selectPr(ctx, state, name, selector);
    ctx.notes.pr = pr.number;
    const src = { repo: name, diff: diffSource(repo), label: labelSource(state) };
    if (json)
      return {
        stdout: printJson(
          pick(json.fields, (f) => prFieldValue(f, pr, src)),
          json.jq,
        ),
      };
    // Non-TTY, `--comments` prints the comments and reviews only: a run's pull requests have none.
    if (bool(args, 'comments')) return { stdout: '' };
    const diff = src.diff(pr);
    const lines = [
      `title:\t${pr.title}`,
      `state:\t${pr.state === 'OPEN' && pr.draft ? 'DRAFT' : pr.state}`,
      `author:\t${pr.author}`,
      `labels:\t${labelList((pr.labels ?? []).map((n) => src.label(n).name))}`,
      `assignees:\t${(pr.assignees ?? []).join(', ')}`,
      'reviewers:\t',
      'projects:\t',
      'milestone:\t',
      `number:\t${pr.number}`,
      `url:\t${pr.url}`,
      `additions:\t${diff.additions}`,
      `deletions:\t${diff.deletions}`,
      'auto-merge:\tdisabled',
      '--',
      pr.body,
    ];
    return { stdout: lines.join('\n') + '\n' };
  },
};

/** gh's `prLabelList`: names sorted regardless of case (stable), comma-separated. */
function labelList(labels: string[]): string {
  return [...labels]
    .sort((a, b) => {
      const x = a.toLowerCase();
      const y = b.toLowerCase();
      return x < y ? -1 : x > y ? 1 : 0;
    })
    .join(', ');
}
