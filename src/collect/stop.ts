import path from 'node:path';
import type { DiffCounters, GhCall, PullAtStop, StopRecord } from '../artifacts/index.js';
import { runGit } from '../git/index.js';
import type { RunContainer } from '../runtime/index.js';
import { pullRequestOfBranch, readCalls, readPullRequests } from './gh-record.js';
import { runProbes } from './probes.js';

/** The reserved probe names (see EvalSet.probes). */
export const KIND_PROBE = 'kind';
export const DESCRIPTION_PROBE = 'description';

/** Where things are, on the host and in the container, for one run. */
export interface StopContext {
  readonly container: RunContainer;
  /** Host path of the work tree. */
  readonly workTree: string;
  /** Host path of the local bare origin. */
  readonly originPath: string;
  /** Path of the work tree inside the container (probes run there). */
  readonly containerWorkTree: string;
  /** Environment of probe execs (HOME, PATH...). */
  readonly probeEnv: Readonly<Record<string, string>>;
  readonly probes: Readonly<Record<string, string>>;
  readonly handOver: readonly string[];
  /** Measures the work tree against the baseline (src/environment's measureDiff). */
  readonly measureDiff: (workTree: string) => Promise<DiffCounters>;
}

/** What one turn ended with, as the campaign saw it. */
export interface TurnEnd {
  readonly turn: number;
  readonly phase: string;
  readonly exitCode: number | null;
  readonly durationMs: number;
  /** seq of the last call already attributed to an earlier stop. */
  readonly afterSeq: number;
}

/**
 * Two descriptions are the same when they differ only by trailing white space:
 * a body passed through a heredoc ends with a newline a probe's output may not.
 */
export function sameDescription(a: string, b: string): boolean {
  return a.replace(/\s+$/u, '') === b.replace(/\s+$/u, '');
}

async function gitLine(args: string[], cwd: string): Promise<string | null> {
  const r = await runGit(args, { cwd, reject: false });
  return r.exitCode === 0 ? r.stdout.trim() : null;
}

/** HEAD's commit and branch in one git call (a process is not free); null where there is none. */
async function headOf(workTree: string): Promise<{ branch: string | null; head: string | null }> {
  const r = await runGit(['rev-parse', 'HEAD', '--symbolic-full-name', 'HEAD'], {
    cwd: workTree,
    reject: false,
  });
  if (r.exitCode === 0) {
    const [head = null, ref = ''] = r.stdout.trim().split('\n');
    return { head, branch: ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : null };
  }
  // An unborn branch has no commit yet, but it is a branch.
  return {
    head: null,
    branch: await gitLine(['symbolic-ref', '--quiet', '--short', 'HEAD'], workTree),
  };
}

async function originHolds(
  originPath: string,
  head: string,
  branch: string | null,
): Promise<boolean> {
  if (branch === null) return false;
  const tip = await gitLine(
    ['rev-parse', '--verify', '-q', `refs/heads/${branch}^{commit}`],
    originPath,
  );
  if (tip === null) return false;
  if (tip === head) return true;
  const r = await runGit(['merge-base', '--is-ancestor', head, tip], {
    cwd: originPath,
    reject: false,
  });
  return r.exitCode === 0;
}

/**
 * Reads everything a stop records: probes (in the container), then git state,
 * the stand-in's record and the diff (on the host, from the mounted work tree).
 */
export async function collectStop(ctx: StopContext, end: TurnEnd): Promise<StopRecord> {
  // Probes run in the container while the host reads the mounted work tree:
  // both only read, and the stop is taken after the turn ended.
  const gitDir = path.join(ctx.workTree, '.git');
  const probesDone = runProbes({
    container: ctx.container,
    workingDir: ctx.containerWorkTree,
    env: ctx.probeEnv,
    probes: ctx.probes,
  });
  // Awaited below, after headOf: a failure meanwhile (the container removed by a
  // signal, the engine lost) must not be an unhandled rejection that ends evalrig.
  probesDone.catch(() => undefined);
  const { branch, head } = await headOf(ctx.workTree);
  const [probes, pulls, calls, diff, originHasHead] = await Promise.all([
    probesDone,
    readPullRequests(gitDir),
    readCalls(gitDir),
    ctx.measureDiff(ctx.workTree),
    head === null ? Promise.resolve(false) : originHolds(ctx.originPath, head, branch),
  ]);
  const kindText = probes[KIND_PROBE]?.stdout.trim();
  const kind = kindText ? kindText : null;
  const description = probes[DESCRIPTION_PROBE];
  const pr = branch === null ? undefined : pullRequestOfBranch(pulls, branch);
  const pull: PullAtStop | null = pr
    ? {
        number: pr.number,
        url: pr.url,
        title: pr.title,
        body: pr.body,
        state: pr.state,
        draft: pr.draft,
        described: description === undefined ? null : sameDescription(pr.body, description.stdout),
      }
    : null;
  return {
    turn: end.turn,
    phase: end.phase,
    exit_code: end.exitCode,
    duration_ms: end.durationMs,
    kind,
    hand_over: kind !== null && ctx.handOver.includes(kind),
    branch,
    head,
    origin_has_head: originHasHead,
    pull,
    calls: calls.filter((c: GhCall) => c.seq > end.afterSeq),
    diff,
    probes,
    at: new Date().toISOString(),
  };
}
