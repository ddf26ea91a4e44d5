import {
  atMostOneArgument,
  notPlayed,
  played,
  str,
  usageOf,
  type CommandSpec,
} from '../cli/args.js';
import { GhError } from '../errors.js';
import { PR_COMMON_FLAGS, readBodyFile, selectPr } from './common.js';
import type { Command } from './types.js';

const spec: CommandSpec = {
  name: 'pr edit',
  flags: [
    played('title', 'string', 't'),
    played('body', 'string', 'b'),
    played('body-file', 'string', 'F'),
    played('base', 'string', 'B'),
    notPlayed('add-label', 'string'),
    notPlayed('remove-label', 'string'),
    notPlayed('add-reviewer', 'string'),
    notPlayed('remove-reviewer', 'string'),
    notPlayed('add-assignee', 'string'),
    notPlayed('remove-assignee', 'string'),
    notPlayed('add-project', 'string'),
    notPlayed('remove-project', 'string'),
    notPlayed('milestone', 'string', 'm'),
    notPlayed('remove-milestone', 'bool'),
    ...PR_COMMON_FLAGS,
  ],
};

/** `gh pr edit [<number>|<url>|<branch>]`: title, body and base. Prints the URL. */
export const prEdit: Command = {
  spec,
  run(ctx, args) {
    const selector = atMostOneArgument(spec, args);
    let body = str(args, 'body');
    const bodyFile = str(args, 'body-file');
    if (body !== undefined && bodyFile !== undefined) {
      throw new GhError('specify only one of `--body` or `--body-file`', 1, usageOf(spec));
    }
    const title = str(args, 'title');
    const base = str(args, 'base');
    if (title === undefined && body === undefined && bodyFile === undefined && base === undefined) {
      throw new GhError(
        '--title, --body, --reviewer, --assignee, --label, --project, or --milestone required when not running interactively',
        1,
        usageOf(spec),
      );
    }
    // Standard input is read before the lock is taken: a slow writer must not stall others.
    if (bodyFile !== undefined) body = readBodyFile(ctx, bodyFile);
    if (body !== undefined) ctx.notes.description = body;

    const repo = ctx.repo();
    const name = repo.repoName();
    const store = ctx.store();
    const pr = selectPr(ctx, store.read(), name, selector);
    ctx.notes.pr = pr.number;
    if (title !== undefined) pr.title = title;
    if (body !== undefined) pr.body = body;
    if (base !== undefined) pr.base = base;
    pr.updated_at = ctx.now();
    store.changed();
    return { stdout: `${pr.url}\n` };
  },
};
