import { resolve } from 'node:path';
import { readFileSync } from 'node:fs';
import { given, played, type FlagSpec, type ParsedArgs, str } from '../cli/args.js';
import type { Ctx } from '../context.js';
import { GhError, NotPlayedError } from '../errors.js';
import { selectFields, stringifySorted, type PrDiff } from '../fields/index.js';
import { configValue, parseRemote, type RepoContext, type RepoName } from '../git/index.js';
import {
  evalJq,
  formatJqOutput,
  JqParseError,
  JqRuntimeError,
  JqUnsupported,
  parseJq,
} from '../jq/index.js';
import { findLabel, type PullRequest, type RepoLabel, type State } from '../store/index.js';

/** The root's `--help` (persistent, no shorthand: gh's root.go). */
export const HELP_FLAG: FlagSpec = played('help', 'bool', undefined, 'Show help for command', {
  inherited: true,
});

/** `-R/--repo`, which every pr command inherits from `gh pr` (cmdutil.EnableRepoOverride). */
export const REPO_FLAG: FlagSpec = played(
  'repo',
  'string',
  'R',
  'Select another repository using the `[HOST/]OWNER/REPO` format',
  { inherited: true },
);

/** Flags every pr command inherits from `gh pr` and the root. */
export const PR_COMMON_FLAGS: FlagSpec[] = [REPO_FLAG, HELP_FLAG];

/** `--json`, `--jq`, `--template` (pkg/cmdutil/json_flags.go `AddJSONFlags`). */
export const JSON_FLAGS: FlagSpec[] = [
  played('json', 'stringSlice', undefined, 'Output JSON with the specified `fields`'),
  played('jq', 'string', 'q', 'Filter JSON output using a jq `expression`'),
  played(
    'template',
    'string',
    't',
    'Format JSON output using a Go template; see "gh help formatting"',
  ),
];

/** The `--json`/`--jq` request of a call, checked before anything else (as gh's pre-run does). */
export interface JsonRequest {
  fields: string[];
  jq: string | undefined;
}

/**
 * Checks `--json`, `--jq` and `--template` as gh's pre-run does (pkg/cmdutil/json_flags.go
 * `checkJSONFlags`), before the command's own checks; undefined when `--json` was not given.
 */
export function jsonRequest(
  args: ParsedArgs,
  all: readonly string[],
  notPlayedFields: ReadonlySet<string>,
): JsonRequest | undefined {
  const json = str(args, 'json');
  const jq = str(args, 'jq') ?? '';
  const template = str(args, 'template') ?? '';
  if (json === undefined) {
    if (given(args, 'jq')) throw new GhError('cannot use `--jq` without specifying `--json`');
    if (given(args, 'template')) {
      throw new GhError('cannot use `--template` without specifying `--json`');
    }
    return undefined;
  }
  if (given(args, 'web')) throw new GhError('cannot use `--web` with `--json`');
  const fields = selectFields(json, all, notPlayedFields);
  // An empty --jq is no filter, as in gh. A Go template alone is not played; with a filter gh
  // ignores it (the exporter's Write tries the filter first).
  if (jq === '' && template !== '') throw new NotPlayedError('--template');
  if (jq !== '') {
    try {
      parseJq(jq); // refuses what is beyond the subset before any work
    } catch (e) {
      if (e instanceof JqUnsupported) throw new NotPlayedError(e.message);
      // A parse error comes after the lookup in gh (the exporter's Write): printJson words it.
      if (!(e instanceof JqParseError)) throw e;
    }
  }
  return { fields, jq: jq === '' ? undefined : jq };
}

/** Prints a `--json` value (compact, keys sorted), through `--jq` when given. */
export function printJson(value: unknown, jq: string | undefined): string {
  if (jq === undefined) return stringifySorted(value) + '\n';
  try {
    return formatJqOutput(evalJq(parseJq(jq), value));
  } catch (e) {
    if (e instanceof JqRuntimeError || e instanceof JqParseError) throw new GhError(e.message);
    if (e instanceof JqUnsupported) throw new NotPlayedError(e.message);
    throw e;
  }
}

/** Reads `--body-file` (`-` is standard input, noted for the record). */
export function readBodyFile(ctx: Ctx, file: string): string {
  if (file === '-') return ctx.readStdin();
  try {
    return readFileSync(resolve(ctx.cwd, file), 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'no such file or directory'
        : code === 'EISDIR'
          ? 'is a directory'
          : code === 'EACCES'
            ? 'permission denied'
            : String(code);
    throw new GhError(`open ${file}: ${why}`);
  }
}

/** The current branch, or gh's error for a detached HEAD. */
export function branchOrFail(repo: RepoContext, prefix = ''): string {
  const b = repo.branch();
  if (b === undefined) {
    throw new GhError(
      `${prefix}could not determine current branch: failed to run git: not on any branch`,
    );
  }
  return b;
}

/** How gh's finder orders a branch's pull requests: newest created first, open ones first. */
export function byPreference(a: PullRequest, b: PullRequest): number {
  const open = Number(b.state === 'OPEN') - Number(a.state === 'OPEN');
  if (open !== 0) return open;
  if (a.created_at !== b.created_at) return a.created_at < b.created_at ? 1 : -1;
  return b.number - a.number;
}

const PULL_URL = /^https?:\/\/([^/]*)\/([^/]+)\/([^/]+)\/pull\/(\d+)/i;

/** A selector that is a number (`12`, `#12`), as gh's `strconv.Atoi` reads it. */
function selectorNumber(selector: string): number | undefined {
  const m = /^#?([+-]?\d+)$/.exec(selector);
  return m ? Number(m[1]) : undefined;
}

/**
 * The current branch as gh's finder names it (shared/finder.go `parseCurrentBranch`): a
 * branch merging `refs/pull/N/head` stands for PR N; one tracking a remote branch stands for
 * that branch, `OWNER:` prefixed when the remote is another owner's.
 */
function currentSelector(
  repo: RepoContext,
  base: RepoName,
): { branch: string } | { number: number } {
  const branch = branchOrFail(repo);
  const config = repo.config();
  const mergeRef = configValue(config, `branch.${branch}.merge`) ?? '';
  const pull = /^refs\/pull\/(\d+)\/head$/.exec(mergeRef);
  if (pull) return { number: Number(pull[1]) };
  const remote = configValue(config, `branch.${branch}.remote`) ?? '';
  let owner: string | undefined;
  if (remote.includes(':')) owner = parseRemote(remote)?.owner;
  else if (remote !== '') {
    try {
      owner = repo.remotes().find((r) => r.name === remote)?.repo.owner;
    } catch {
      owner = undefined;
    }
  }
  if (owner === undefined || owner === '') return { branch };
  let head = mergeRef.startsWith('refs/heads/') ? mergeRef.slice('refs/heads/'.length) : branch;
  if (owner.toLowerCase() !== base.owner.toLowerCase()) head = `${owner}:${head}`;
  return { branch: head };
}

/**
 * The number a selector names when gh needs no lookup for it (a number, a URL, a current
 * branch merging `refs/pull/N/head`), else undefined. gh answers `--json number` from it alone.
 */
export function numberOf(
  ctx: Ctx,
  selector: string | undefined,
  base: RepoName,
): number | undefined {
  if (selector === undefined) {
    const cur = currentSelector(ctx.repo(), base);
    return 'number' in cur ? cur.number : undefined;
  }
  const url = PULL_URL.exec(selector);
  if (url) return Number(url[4]);
  const n = selectorNumber(selector);
  return n !== undefined && n > 0 ? n : undefined;
}

/** A pull-request selector resolved against the state (`123`, `#123`, a URL, a branch). */
export function selectPr(
  ctx: Ctx,
  state: State,
  repoName: RepoName,
  selector: string | undefined,
): PullRequest {
  let number: number | undefined;
  let branch: string | undefined;
  if (selector === undefined) {
    const cur = currentSelector(ctx.repo(), repoName);
    if ('number' in cur) number = cur.number;
    else branch = cur.branch;
  } else {
    const url = PULL_URL.exec(selector);
    if (url) {
      const host = (url[1] ?? '').toLowerCase();
      if (
        !(host === 'github.com' || host.endsWith('.github.com')) ||
        !sameRepo(repoName, url[2] ?? '', url[3] ?? '')
      ) {
        throw new NotPlayedError(`a pull request of another repository (${selector})`);
      }
      number = Number(url[4]);
    } else {
      const n = selectorNumber(selector);
      if (n !== undefined && n > 0) number = n;
      else branch = selector;
    }
  }
  if (number !== undefined) {
    const pr = state.pull_requests.find((p) => p.number === number);
    if (!pr) {
      throw new GhError(
        `GraphQL: Could not resolve to a PullRequest with the number of ${number}. (repository.pullRequest)`,
      );
    }
    return pr;
  }
  // gh compares the head label (`OWNER:branch` only for a fork's PR, which the record never
  // holds) and skips a closed PR whose head is the default branch (shared/finder.go).
  const candidates = state.pull_requests.filter((p) => p.head === branch).sort(byPreference);
  let defaultBranch: string | undefined;
  const found = candidates.find(
    (p) => p.state === 'OPEN' || (defaultBranch ??= ctx.repo().defaultBranch()) !== branch,
  );
  if (!found) throw new GhError(`no pull requests found for branch "${branch}"`);
  return found;
}

function sameRepo(r: RepoName, owner: string, name: string): boolean {
  return (
    r.owner.toLowerCase() === owner.toLowerCase() && r.name.toLowerCase() === name.toLowerCase()
  );
}

/**
 * What git says of a pull request's commits: the tips the remote holds and the diff between
 * the merge base and the head. When git cannot tell (a branch gone from the remote, objects
 * not here), the counts are 0 and the oids empty.
 */
export function prDiff(repo: RepoContext, pr: PullRequest): PrDiff {
  const headRefOid = repo.remoteBranchCommit(pr.head) ?? '';
  const baseRefOid = repo.remoteBranchCommit(pr.base) ?? '';
  const files: PrDiff['files'] = [];
  if (headRefOid && baseRefOid) {
    const r = repo.git([
      'diff',
      '--numstat',
      '-z',
      '--no-renames',
      `${baseRefOid}...${headRefOid}`,
    ]);
    if (r.status === 0) {
      for (const entry of r.stdout.split('\0')) {
        const m = /^(\d+|-)\t(\d+|-)\t(.+)$/s.exec(entry);
        if (!m) continue;
        files.push({
          path: m[3] ?? '',
          additions: m[1] === '-' ? 0 : Number(m[1]),
          deletions: m[2] === '-' ? 0 : Number(m[2]),
        });
      }
    }
  }
  return {
    headRefOid,
    baseRefOid,
    additions: files.reduce((n, f) => n + f.additions, 0),
    deletions: files.reduce((n, f) => n + f.deletions, 0),
    files,
  };
}

/** A per-call cache of {@link prDiff}. */
export function diffSource(repo: RepoContext): (pr: PullRequest) => PrDiff {
  const cache = new Map<number, PrDiff>();
  return (pr) => {
    let d = cache.get(pr.number);
    if (!d) cache.set(pr.number, (d = prDiff(repo, pr)));
    return d;
  };
}

/** The repository's label for a name a pull request carries (its own when the state lacks it). */
export function labelSource(state: State): (name: string) => Required<RepoLabel> {
  return (name) => findLabel(state, name) ?? { name, description: '', color: 'ededed' };
}
