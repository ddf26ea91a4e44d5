import {
  atMostOneArgument,
  flagError,
  notPlayed,
  played,
  str,
  type CommandSpec,
} from '../cli/args.js';
import { PR_COMMON_FLAGS, readBodyFile, selectPr } from './common.js';
import type { Command } from './types.js';

const spec: CommandSpec = {
  name: 'pr edit',
  use: 'edit [<number> | <url> | <branch>]',
  flags: [
    played('title', 'string', 't', 'Set the new title.'),
    played('body', 'string', 'b', 'Set the new body.'),
    played(
      'body-file',
      'string',
      'F',
      'Read body text from `file` (use "-" to read from standard input)',
    ),
    played('base', 'string', 'B', 'Change the base `branch` for this pull request'),
    notPlayed('add-reviewer', 'stringSlice', undefined, 'Add reviewers by their `login`.'),
    notPlayed('remove-reviewer', 'stringSlice', undefined, 'Remove reviewers by their `login`.'),
    notPlayed(
      'add-assignee',
      'stringSlice',
      undefined,
      'Add assigned users by their `login`. Use "@me" to assign yourself.',
    ),
    notPlayed(
      'remove-assignee',
      'stringSlice',
      undefined,
      'Remove assigned users by their `login`. Use "@me" to unassign yourself.',
    ),
    notPlayed('add-label', 'stringSlice', undefined, 'Add labels by `name`'),
    notPlayed('remove-label', 'stringSlice', undefined, 'Remove labels by `name`'),
    notPlayed(
      'add-project',
      'stringSlice',
      undefined,
      'Add the pull request to projects by `title`',
    ),
    notPlayed(
      'remove-project',
      'stringSlice',
      undefined,
      'Remove the pull request from projects by `title`',
    ),
    notPlayed(
      'milestone',
      'string',
      'm',
      'Edit the milestone the pull request belongs to by `name`',
    ),
    notPlayed(
      'remove-milestone',
      'bool',
      undefined,
      'Remove the milestone association from the pull request',
    ),
    ...PR_COMMON_FLAGS,
  ],
};

/** `gh pr edit [<number>|<url>|<branch>]`: title, body and base. Prints the URL. */
export const prEdit: Command = {
  spec,
  run(ctx, args) {
    const selector = atMostOneArgument(args);
    let body = str(args, 'body');
    // gh counts `--body-file ""` as not given (pkg/cmd/pr/edit/edit.go).
    const bodyFile = str(args, 'body-file') || undefined;
    if (body !== undefined && bodyFile !== undefined) {
      throw flagError(spec, 'specify only one of `--body` or `--body-file`');
    }
    const title = str(args, 'title');
    const base = str(args, 'base');
    if (title === undefined && body === undefined && bodyFile === undefined && base === undefined) {
      throw flagError(
        spec,
        '--title, --body, --reviewer, --assignee, --label, --project, or --milestone required when not running interactively',
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
