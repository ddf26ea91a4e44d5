/**
 * Labels and assignees of a pull request, resolved as GitHub resolves them (api/queries_repo.go
 * `LabelsToIDs`, `MembersToIDs`): names matched regardless of case against what the repository
 * has. In a run the only assignable user is the logged-in one (`GH_STAND_IN_USER`).
 */
import { list, type ParsedArgs } from '../cli/args.js';
import type { Ctx } from '../context.js';
import { NotPlayedError } from '../errors.js';
import { findLabel, type PullRequest, type State } from '../store/index.js';

/** What a resolution found: the canonical names, or the first name GitHub would not find. */
export type Resolved = { names: string[]; unknown?: undefined } | { unknown: string };

/** gh's `MeReplacer`: `@me` is the logged-in user's login. */
export function replaceMe(ctx: Ctx, logins: string[]): string[] {
  return logins.map((l) => (l === '@me' ? ctx.user() : l));
}

/** `MembersToIDs`: each login must be assignable; the repository's spelling is kept. */
export function resolveAssignees(ctx: Ctx, logins: string[]): Resolved {
  const user = ctx.user();
  const unknown = logins.find((l) => l.toLowerCase() !== user.toLowerCase());
  return unknown === undefined ? { names: unique(logins.map(() => user)) } : { unknown };
}

/** `LabelsToIDs`: each name must be a label of the repository, matched regardless of case. */
export function resolveLabels(state: State, names: string[]): Resolved {
  const found: string[] = [];
  for (const name of names) {
    const label = findLabel(state, name);
    if (!label) return { unknown: name };
    found.push(label.name);
  }
  return { names: unique(found) };
}

/** The values once each, in order. */
function unique(values: string[]): string[] {
  return [...new Set(values)];
}

/** A pull request's list with names added and removed (an empty list leaves the field out). */
export function setNames(
  pr: PullRequest,
  key: 'labels' | 'assignees',
  add: readonly string[],
  remove: readonly string[],
): void {
  const gone = new Set(remove.map((n) => n.toLowerCase()));
  const next = unique([...(pr[key] ?? []), ...add]).filter((n) => !gone.has(n.toLowerCase()));
  if (next.length > 0) pr[key] = next;
  else delete pr[key];
}

/** `--add-assignee`/`--remove-assignee` values, `@me` replaced; `@copilot` is not played. */
export function assigneeFlag(ctx: Ctx, args: ParsedArgs, long: string): string[] {
  const values = list(args, long);
  if (values.some((v) => v.toLowerCase() === '@copilot')) {
    throw new NotPlayedError(`"gh pr edit --${long} @copilot"`);
  }
  return replaceMe(ctx, values);
}
