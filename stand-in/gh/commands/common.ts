import { resolve } from 'node:path';
import { readFileSync } from 'node:fs';
import { notPlayed, played, type FlagSpec, type ParsedArgs, str } from '../cli/args.js';
import type { Ctx } from '../context.js';
import { GhError, NotPlayedError } from '../errors.js';
import { selectFields, stringifySorted, type PrDiff } from '../fields/index.js';
import type { RepoContext, RepoName } from '../git/index.js';
import { evalJq, formatJqOutput, JqRuntimeError, JqUnsupported, parseJq } from '../jq/index.js';
import type { PullRequest, State } from '../store/index.js';

/** Flags every pr command has besides its own. */
export const PR_COMMON_FLAGS: FlagSpec[] = [
  notPlayed('repo', 'string', 'R'),
  notPlayed('help', 'bool', 'h'),
];

/** `--json`, `--jq`, `--template` (gh adds the three together). */
export const JSON_FLAGS: FlagSpec[] = [
  played('json', 'string'),
  played('jq', 'string', 'q'),
  notPlayed('template', 'string', 't'),
];

/** The `--json`/`--jq` request of a call, checked before anything else (as gh's pre-run does). */
export interface JsonRequest {
  fields: string[];
  jq: string | undefined;
}

/** Checks `--json` and `--jq`; undefined when `--json` was not given. */
export function jsonRequest(
  args: ParsedArgs,
  all: readonly string[],
  notPlayedFields: ReadonlySet<string>,
): JsonRequest | undefined {
  const json = str(args, 'json');
  const jq = str(args, 'jq');
  if (json === undefined) {
    if (jq !== undefined) throw new GhError('cannot use `--jq` without specifying `--json`');
    return undefined;
  }
  const fields = selectFields(json, all, notPlayedFields);
  if (jq !== undefined) {
    try {
      parseJq(jq); // refuses what is beyond the subset before any work
    } catch (e) {
      if (e instanceof JqUnsupported) throw new NotPlayedError(e.message);
      throw e;
    }
  }
  return { fields, jq };
}

/** Prints a `--json` value (compact, keys sorted), through `--jq` when given. */
export function printJson(value: unknown, jq: string | undefined): string {
  if (jq === undefined) return stringifySorted(value) + '\n';
  try {
    return formatJqOutput(evalJq(parseJq(jq), value));
  } catch (e) {
    if (e instanceof JqRuntimeError) throw new GhError(e.message);
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

/** The open pull request first, then the newest: how gh picks one for a branch. */
export function byPreference(a: PullRequest, b: PullRequest): number {
  const open = Number(b.state === 'OPEN') - Number(a.state === 'OPEN');
  return open !== 0 ? open : b.number - a.number;
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
  if (selector === undefined) branch = branchOrFail(ctx.repo());
  else if (/^#?\d+$/.test(selector)) number = Number(selector.replace('#', ''));
  else {
    const url = /^https?:\/\/[^/]+\/([^/]+)\/([^/]+)\/pull\/(\d+)(?:[/?#].*)?$/.exec(selector);
    if (url) {
      if (!sameRepo(repoName, url[1] ?? '', url[2] ?? '')) {
        throw new NotPlayedError(`a pull request of another repository (${selector})`);
      }
      number = Number(url[3]);
    } else {
      branch = selector;
      const owned = /^([^:]+):(.+)$/.exec(selector);
      if (owned) {
        if (owned[1]?.toLowerCase() !== repoName.owner.toLowerCase()) {
          throw new NotPlayedError(`a pull request from a fork (${selector})`);
        }
        branch = owned[2] ?? '';
      }
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
  const found = state.pull_requests.filter((p) => p.head === branch).sort(byPreference)[0];
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
