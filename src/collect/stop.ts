import path from 'node:path';
import type {
  DiffCounters,
  GhCall,
  GhPullRequest,
  PullAtStop,
  StopRecord,
} from '../artifacts/index.js';
import { EvalrigError } from '../errors/index.js';
import type { Sandbox } from '../sandbox/index.js';
import { isRealFolder, readHead, readRef } from '../untrusted/index.js';
import { capCall, pullRequestOfBranch } from './gh-record.js';
import { runProbes } from './probes.js';

/** The reserved probe names (see EvalSet.probes). */
export const KIND_PROBE = 'kind';
export const DESCRIPTION_PROBE = 'description';

/** Where things are, on the host and in the container, for one run. */
export interface StopContext {
  /** The run's sandbox: probes run there (its trees were synced out before the stop is read). */
  readonly sandbox: Pick<Sandbox, 'exec'>;
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
  /**
   * The host's own copy of the gh record (the recorder's, never the
   * repository's, which the agent can rewrite): what the stop reads.
   */
  readonly ghRecord: () => {
    readonly calls: readonly GhCall[];
    readonly pulls: readonly GhPullRequest[];
  };
  /** Measures the work tree against the baseline (src/workspace's measureDiff on the run's seal). */
  readonly measureDiff: () => Promise<DiffCounters>;
  /** Ancestry answered by the host with these object folders borrowed as data (src/workspace's isAncestorIn). */
  readonly isAncestor: (
    objects: readonly string[],
    ancestor: string,
    descendant: string,
  ) => Promise<boolean>;
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

/**
 * Whether origin's copy of `branch` holds `head` (is it, or descends from it).
 * Refs are read as files; ancestry is answered in the seal's git dir.
 */
async function originHolds(
  ctx: StopContext,
  head: string,
  branch: string | null,
): Promise<boolean> {
  if (branch === null) return false;
  const tip = await readRef(ctx.originPath, `refs/heads/${branch}`);
  if (tip === null) return false;
  if (tip === head) return true;
  return ctx.isAncestor(
    [path.join(ctx.workTree, '.git', 'objects'), path.join(ctx.originPath, 'objects')],
    head,
    tip,
  );
}

/** A pull request's title and body are kept in a stop up to these sizes (the agent writes them). */
export const MAX_TITLE_BYTES = 1024;
export const MAX_BODY_BYTES = 64 * 1024;

/** `text` cut to at most `max` bytes at a character boundary, the cut marked. */
export function capText(text: string, max: number): string {
  if (Buffer.byteLength(text) <= max) return text;
  const kept = Buffer.from(text)
    .subarray(0, max)
    .toString('utf8')
    .replace(/\uFFFD$/u, '');
  return `${kept}\n[evalrig: cut at ${max} of ${Buffer.byteLength(text)} bytes]`;
}

/** A run's repository is not what git needs: the run ends as broken, not as a harness failure. */
export class BrokenWorkspaceError extends EvalrigError {}

/** The work tree's git dir, which must still be a real folder (not a link, not a `.git` file). */
async function gitDirOf(workTree: string): Promise<string> {
  if (!(await isRealFolder(workTree, '.git'))) {
    throw new BrokenWorkspaceError(`${workTree}/.git is no longer a folder of its own`);
  }
  return path.join(workTree, '.git');
}

/**
 * Reads everything a stop records: probes (in the container), then git state,
 * the stand-in's record and the diff (on the host, from the work tree as the
 * sandbox left it: mounted, or synced out before this is called).
 */
/** A pull request's labels or assignees for its stop: left out when none, capped (GitHub allows 100). */
function nameList<K extends 'labels' | 'assignees'>(
  key: K,
  names: readonly string[] | undefined,
): { [k in K]?: string[] } {
  if (!names || names.length === 0) return {};
  return { [key]: names.slice(0, 100).map((n) => capText(n, 256)) } as { [k in K]?: string[] };
}

export async function collectStop(ctx: StopContext, end: TurnEnd): Promise<StopRecord> {
  // Every process of the agent was stopped before: nothing changes while the
  // host reads the work tree as data, and probes run beside.
  const gitDir = await gitDirOf(ctx.workTree);
  const { branch, head } = await readHead(gitDir);
  const { calls, pulls } = ctx.ghRecord();
  const [probes, diff, originHasHead] = await Promise.all([
    runProbes({
      sandbox: ctx.sandbox,
      workingDir: ctx.containerWorkTree,
      env: ctx.probeEnv,
      probes: ctx.probes,
    }),
    ctx.measureDiff(),
    head === null ? Promise.resolve(false) : originHolds(ctx, head, branch),
  ]);
  const kindText = probes[KIND_PROBE]?.stdout.trim();
  const kind = kindText ? kindText : null;
  const description = probes[DESCRIPTION_PROBE];
  const pr = branch === null ? undefined : pullRequestOfBranch(pulls, branch);
  const pull: PullAtStop | null = pr
    ? {
        number: pr.number,
        url: pr.url,
        title: capText(pr.title, MAX_TITLE_BYTES),
        body: capText(pr.body, MAX_BODY_BYTES),
        state: pr.state,
        draft: pr.draft,
        described: description === undefined ? null : sameDescription(pr.body, description.stdout),
        ...nameList('labels', pr.labels),
        ...nameList('assignees', pr.assignees),
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
    calls: calls.filter((c: GhCall) => c.seq > end.afterSeq).map(capCall),
    diff,
    probes,
    at: new Date().toISOString(),
  };
}
