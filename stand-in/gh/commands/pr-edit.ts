import {
  atMostOneArgument,
  flagError,
  given,
  list,
  notPlayed,
  played,
  str,
  type ParsedArgs,
} from '../cli/args.js';
import type { Ctx } from '../context.js';
import type { PullRequest, State } from '../store/index.js';
import { PR_COMMON_FLAGS, readBodyFile, selectPr } from './common.js';
import { assigneeFlag, resolveAssignees, resolveLabels, setNames } from './metadata.js';
import { baseRepo } from './repo-override.js';
import type { Command } from './types.js';

const spec: Command['spec'] = {
  name: 'pr edit',
  use: 'edit [<number> | <url> | <branch>]',
  help: {
    short: 'Edit a pull request',
    long: `Edit a pull request.

Without an argument, the pull request that belongs to the current branch
is selected.

Editing a pull request's projects requires authorization with the \`project\` scope.
To authorize, run \`gh auth refresh -s project\`.

The \`--add-assignee\` and \`--remove-assignee\` flags both support
the following special values:
- \`@me\`: assign or unassign yourself
- \`@copilot\`: assign or unassign Copilot (not supported on GitHub Enterprise Server)

The \`--add-reviewer\` and \`--remove-reviewer\` flags do not support
these special values.
`,
    example: `$ gh pr edit 23 --title "I found a bug" --body "Nothing works"
$ gh pr edit 23 --add-label "bug,help wanted" --remove-label "core"
$ gh pr edit 23 --add-reviewer monalisa,hubot  --remove-reviewer myorg/team-name
$ gh pr edit 23 --add-assignee "@me" --remove-assignee monalisa,hubot
$ gh pr edit 23 --add-assignee "@copilot"
$ gh pr edit 23 --add-project "Roadmap" --remove-project v1,v2
$ gh pr edit 23 --milestone "Version 1"
$ gh pr edit 23 --remove-milestone
`,
  },
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
    played(
      'add-assignee',
      'stringSlice',
      undefined,
      'Add assigned users by their `login`. Use "@me" to assign yourself, or "@copilot" to assign Copilot.',
    ),
    played(
      'remove-assignee',
      'stringSlice',
      undefined,
      'Remove assigned users by their `login`. Use "@me" to unassign yourself, or "@copilot" to unassign Copilot.',
    ),
    played('add-label', 'stringSlice', undefined, 'Add labels by `name`'),
    played('remove-label', 'stringSlice', undefined, 'Remove labels by `name`'),
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

/** The flags that edit a pull request's labels and assignees, played. */
const META_FLAGS = ['add-label', 'remove-label', 'add-assignee', 'remove-assignee'];

/**
 * `gh pr edit [<number>|<url>|<branch>]`: title, body, base, labels and assignees. Prints the
 * URL. As in gh, labels are changed by their own requests, apart from the other fields: an
 * unknown label fails the call (`'x' not found`) while the other edits are still made, and an
 * unknown assignee leaves the title, body, base and assignees as they were.
 */
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
    const meta = META_FLAGS.some((f) => given(args, f));
    if (!meta && [title, body, bodyFile, base].every((v) => v === undefined)) {
      // gh 2.78's wording, its typo included (fixed in later releases).
      throw flagError(
        spec,
        '--tile, --body, --reviewer, --assignee, --label, --project, or --milestone required when not running interactively',
      );
    }
    // Standard input is read before the lock is taken: a slow writer must not stall others.
    if (bodyFile !== undefined) body = readBodyFile(ctx, bodyFile);
    if (body !== undefined) ctx.notes.description = body;

    const name = baseRepo(ctx, args, selector);
    const store = ctx.store();
    const state = store.read();
    const pr = selectPr(ctx, state, name, selector);
    ctx.notes.pr = pr.number;
    // Both run, as gh's concurrent requests do; the labels' refusal is the one told first.
    const labelsFailed = editLabels(args, state, pr);
    const fieldsFailed = editFields(ctx, args, pr, { title, body, base });
    const failed = labelsFailed ?? fieldsFailed;
    pr.updated_at = ctx.now();
    store.changed();
    return failed === undefined
      ? { stdout: `${pr.url}\n` }
      : { stderr: `${failed}\n`, exitCode: 1 };
  },
};

/**
 * `--add-label` and `--remove-label` (shared/editable_http.go `UpdateIssue`): each list is
 * resolved on its own and applied when all its names are labels of the repository.
 * Returns the first refusal.
 */
function editLabels(args: ParsedArgs, state: State, pr: PullRequest): string | undefined {
  const add = resolveLabels(state, list(args, 'add-label'));
  const remove = resolveLabels(state, list(args, 'remove-label'));
  setNames(pr, 'labels', add.unknown === undefined ? add.names : [], []);
  setNames(pr, 'labels', [], remove.unknown === undefined ? remove.names : []);
  const unknown = add.unknown ?? remove.unknown;
  return unknown === undefined ? undefined : `'${unknown}' not found`;
}

/**
 * The other fields, in one request after the assignees (`AssigneeIds`: the current ones plus
 * the added, less the removed, each of which must be assignable). Returns the refusal.
 */
function editFields(
  ctx: Ctx,
  args: ParsedArgs,
  pr: PullRequest,
  fields: { title?: string; body?: string; base?: string },
): string | undefined {
  if (given(args, 'add-assignee') || given(args, 'remove-assignee')) {
    const add = assigneeFlag(ctx, args, 'add-assignee');
    const remove = new Set(assigneeFlag(ctx, args, 'remove-assignee'));
    const wanted = [...new Set([...(pr.assignees ?? []), ...add])].filter((l) => !remove.has(l));
    const assignees = resolveAssignees(ctx, wanted);
    if (assignees.unknown !== undefined) return `'${assignees.unknown}' not found`;
    if (assignees.names.length > 0) pr.assignees = assignees.names;
    else delete pr.assignees;
  }
  if (fields.title !== undefined) pr.title = fields.title;
  if (fields.body !== undefined) pr.body = fields.body;
  if (fields.base !== undefined) pr.base = fields.base;
  return undefined;
}
