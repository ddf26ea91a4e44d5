import { chmod, lstat, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import {
  digestStops,
  writeArtifact,
  writeFileAtomic,
  type CheckResult,
  type DiffCounters,
  type GhPullRequest,
  type ImageRecord,
  type RunRecord,
  type RunStatus,
  type StopRecord,
} from '../artifacts/index.js';
import {
  BrokenEnvironmentError,
  collectStop,
  ghRecordDir,
  recordTampering,
  type StopContext,
} from '../collect/index.js';
import type { EvalSet } from '../config/index.js';
import {
  EnvironmentError,
  isAncestorIn,
  measureDiff,
  canMountQuota,
  handOverTrees,
  mountQuota,
  prepareEnvironment,
  refreshSeal,
  sealEnvironment,
  type QuotaView,
  type DiffCounts,
  type DiffMeasure,
  type Environment,
  type Seal,
} from '../environment/index.js';
import { GitError } from '../git/index.js';
import { placeSetupOutput, type SetupOutput } from '../image/index.js';
import { GH_RECORDER_ENV, startGhRecorder, type GhRecorder } from '../recorder/index.js';
import { UntrustedFileError } from '../untrusted/index.js';
import { capMessage, commandFinalMessage, measureRun, runMessageChecks } from '../measure/index.js';
import {
  LABELS,
  pingDocker,
  ProcessesNotStoppedError,
  startContainer,
  type DockerClient,
  type RunContainer,
} from '../runtime/index.js';
import { provenanceOf, type ResolvedCodebase } from '../source/index.js';
import { openRunGateway, type RunGateway } from '../gateway/index.js';
import { agentTurns, runAgentRecord, type CampaignAgent } from './agent.js';
import { CONTAINER, runLayout, stopFileName, type RunLayout } from './layout.js';
import type { PlannedRun } from './plan.js';
import { truncationMark, turnPlayer, whyAgentFailed } from './turns.js';

/** The image user's uid: environments are handed to it when evalrig runs as root. */
const IMAGE_UID = 1000;
/**
 * The user of a run container's main process: not the agent's, so that at the
 * end of each turn every process of the agent can be stopped while the
 * container lives on (see RunContainer.stopProcessesOf).
 */
const KEEPER_UID = 65534;
const CHECK_OUTPUT_BYTES = 64 * 1024;
/** A gh call's report to the host (its line and the state after it) is refused past this size. */
const MAX_REPORT_BYTES = 4 * 1024 * 1024;
/** Calls of one run the host keeps; more are refused and the run marked tampered. */
const MAX_GH_CALLS = 10_000;
/** Harness config folders forced into the baseline when present, even if the codebase ignores them. */
const HARNESS_PATHS = ['.claude', '.codex', '.agents'];

/** What every run of a campaign shares. */
export interface CampaignContext {
  readonly campaign: string;
  readonly outDir: string;
  readonly evalSet: EvalSet;
  readonly client: DockerClient;
  readonly image: { readonly tag: string; readonly id: string };
  /** Per eval id naming an environment: its image, over the environment image. */
  readonly images?: ReadonlyMap<string, ImageRecord>;
  /** Per eval id with setup commands: their output, copied into each run's work tree. */
  readonly setups?: ReadonlyMap<string, SetupOutput>;
  /** Per eval id with a codebase: its resolution and cached clone. */
  readonly codebases: ReadonlyMap<string, { resolved: ResolvedCodebase; cachePath: string }>;
  readonly stopAtHandOver: boolean;
  /** Overrides every eval's run timeout (seconds). */
  readonly timeoutS?: number;
  readonly keepEnvironments: boolean;
  /** Each of the agent's stdout and stderr is kept up to this many bytes per turn. */
  readonly maxOutputBytes: number;
  /** An adapter agent's stream of one turn is kept up to this (then cut with a visible mark). */
  readonly maxTranscriptBytes?: number;
  readonly maxPatchBytes: number;
  /** Containers of runs in flight, so a signal can remove them. */
  readonly live: Set<RunContainer>;
  /** Clean-ups started off the critical path; the campaign awaits them before it ends. */
  readonly removals: Promise<unknown>[];
  /** True once a signal cut the campaign: a cut run is never written as finished. */
  readonly cut?: () => boolean;
  /** An adapter agent (claude-code): installed, preflighted, each run's model source. */
  readonly agent?: CampaignAgent;
}

export interface RunOutcome {
  readonly status: RunStatus;
  readonly record: RunRecord;
}

/** A name usable as a repository name: the codebase's, else the eval set's. */
export function repositoryName(evalSet: EvalSet, resolved?: ResolvedCodebase): string {
  const raw = resolved?.url ?? resolved?.path ?? evalSet.name;
  const base = raw.replace(/\/+$/u, '').split(/[/:]/u).pop() ?? 'repo';
  const name = base.replace(/\.git$/u, '').replace(/[^A-Za-z0-9._-]+/gu, '-');
  return name && name !== '.' && name !== '..' ? name : 'repo';
}

/** Gives the environment to the container's user (see handOverTrees). */
async function handOverOwnership(env: Environment): Promise<void> {
  const originRoot = path.dirname(path.dirname(env.originPath));
  await handOverTrees([env.workTree, originRoot], `${IMAGE_UID}:${IMAGE_UID}`);
}

/** Seeds the stand-in's state with the eval's prepared pull requests (no call recorded). */
async function seedPullRequests(
  planned: PlannedRun,
  env: Environment,
  owner: string,
  repo: string,
): Promise<GhPullRequest[]> {
  const seeds = planned.eval.start?.pull_requests ?? [];
  if (seeds.length === 0) return [];
  const now = new Date().toISOString().replace(/\.\d{3}Z$/u, 'Z');
  const pulls: GhPullRequest[] = seeds.map((s, i) => ({
    number: i + 1,
    title: s.title,
    body: s.body,
    head: s.head ?? env.branch,
    base: s.base ?? env.baseBranch,
    draft: s.draft,
    state: s.state,
    created_at: now,
    updated_at: now,
    url: `https://github.com/${owner}/${repo}/pull/${i + 1}`,
    author: owner,
  }));
  const dir = ghRecordDir(path.join(env.workTree, '.git'));
  await mkdir(dir, { recursive: true });
  await writeFileAtomic(
    path.join(dir, 'state.json'),
    `${JSON.stringify({ version: 1, next_number: pulls.length + 1, pull_requests: pulls }, null, 2)}\n`,
  );
  return pulls;
}

/**
 * Starts the run's gh recorder: a socket in a folder of its own (0711: the
 * container's user may reach the socket, create nothing), mounted read only.
 */
async function startRecorder(layout: RunLayout): Promise<GhRecorder> {
  await mkdir(layout.socketDir, { recursive: true });
  await chmod(layout.socketDir, 0o711);
  return startGhRecorder({
    socketPath: path.join(layout.socketDir, 'gh.sock'),
    maxMessageBytes: MAX_REPORT_BYTES,
    maxCalls: MAX_GH_CALLS,
  });
}

/**
 * Makes `dir` a folder only the orchestrator's user can enter: the
 * environments under it are handed to the container's uid, which may also be
 * a real user's on the host.
 */
async function claimPrivateFolder(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const info = await lstat(dir);
  if (!info.isDirectory() || info.uid !== process.getuid?.()) {
    throw new Error(`${dir} must be a folder of evalrig's own user (not a link, not another's)`);
  }
  if ((info.mode & 0o077) !== 0) await chmod(dir, 0o700);
}

/** What the agent did to its environment that stops the run: its outcome, not a harness failure. */
function isBrokenByAgent(error: unknown): boolean {
  return (
    error instanceof BrokenEnvironmentError ||
    error instanceof ProcessesNotStoppedError ||
    error instanceof UntrustedFileError ||
    error instanceof EnvironmentError ||
    error instanceof GitError
  );
}

/**
 * Whether the engine, not the agent, is why the run stopped: it is known lost,
 * or a stop that timed out meets an engine that does not answer a ping either
 * (a frozen engine is noticed by the campaign's watch only a few seconds later).
 */
async function engineAtFault(client: DockerClient, caught: unknown): Promise<boolean> {
  if (client.health?.lost) return true;
  if (!(caught instanceof ProcessesNotStoppedError) || !caught.timedOut) return false;
  return pingDocker(client).then(
    () => false,
    () => true,
  );
}

const ZERO_DIFF: DiffCounters = {
  files_added: 0,
  files_modified: 0,
  files_deleted: 0,
  lines_added: 0,
  lines_removed: 0,
  untracked: 0,
};

/**
 * The agent's user in run containers (`uid:gid`): the image's uid 1000 when evalrig runs as
 * root (environments are handed to it), else the orchestrator's own (its files are the run's).
 */
export function agentUserOfRuns(): string {
  return process.getuid?.() === 0
    ? `${IMAGE_UID}:${IMAGE_UID}`
    : `${process.getuid?.()}:${process.getgid?.()}`;
}

/** A run whose environment and container are ready: what {@link prepareRun} hands to {@link playRun}. */
export interface PreparedRun {
  readonly planned: PlannedRun;
  readonly layout: RunLayout;
  readonly env?: Environment;
  /** The host's own record of the environment: what every measure reads. */
  readonly seal?: Seal;
  /** The run's disk quota (evalrig as root): the container sees its overlay. */
  readonly quota?: QuotaView;
  /** The host's own copy of the gh record, reported call by call over a socket. */
  readonly recorder?: GhRecorder;
  /** An adapter agent's model gateway (its socket mounted read-only); closed on release. */
  readonly gateway?: RunGateway;
  /** Pull requests the eval seeded into the stand-in's state (no call recorded). */
  readonly seededPulls: readonly GhPullRequest[];
  readonly container?: RunContainer;
  /** The agent's user in the container (`uid:gid`). */
  readonly agentUser: string;
  readonly containerWorkTree: string;
  readonly home: string;
  /** Set when preparation failed: the run is recorded as failed with it. */
  readonly error?: string;
}

/**
 * Prepares a run: a clean run folder, its environment (checkout, overlay,
 * staged paths, baseline, local origin, seeded pull requests) handed to the
 * container's user, and its container started. The campaign prepares the next
 * runs while earlier ones play, so this work is off the critical path.
 * Never throws: a failure is carried in `error`.
 */
export async function prepareRun(ctx: CampaignContext, planned: PlannedRun): Promise<PreparedRun> {
  const { evalSet } = ctx;
  const e = planned.eval;
  const layout = runLayout(ctx.outDir, planned.key);
  const codebase = ctx.codebases.get(e.id);
  const repo = repositoryName(evalSet, codebase?.resolved);
  const owner = evalSet.repo_owner;
  const containerWorkTree = path.posix.join(CONTAINER.workRoot, repo);
  const containerOrigin = path.posix.join(CONTAINER.remoteRoot, owner, `${repo}.git`);
  const asRoot = process.getuid?.() === 0;
  const home = asRoot ? CONTAINER.home : '/tmp/evalrig-home';
  const agentUser = agentUserOfRuns();
  const keeper = process.getuid?.() === KEEPER_UID ? KEEPER_UID - 1 : KEEPER_UID;
  let env: Environment | undefined;
  let quota: QuotaView | undefined;
  let recorder: GhRecorder | undefined;
  let gateway: RunGateway | undefined;
  let seededPulls: GhPullRequest[] = [];
  try {
    await rm(layout.dir, { recursive: true, force: true });
    await rm(layout.envRoot, { recursive: true, force: true });
    await mkdir(layout.stopsDir, { recursive: true });
    await claimPrivateFolder(path.join(ctx.outDir, 'work'));
    const base = path.join(layout.envRoot, 'base');
    env = await prepareEnvironment({
      root: base,
      codebase,
      overlay: e.files,
      staged: planned.condition.stage,
      forcedPaths: HARNESS_PATHS,
      remote: { owner, name: repo },
      originUrl: containerOrigin,
      startBranch: e.start?.branch,
    });
    seededPulls = await seedPullRequests(planned, env, owner, repo);
    recorder = await startRecorder(layout);
    const setup = ctx.setups?.get(e.id);
    if (setup) {
      // Ignored by the codebase, so out of the baseline and of the diff; placed paths win.
      const placed = [...e.files, ...planned.condition.stage].map((p) => p.to);
      // Linked when the run sees its environment through an overlay (a write copies up).
      await placeSetupOutput(setup, env.workTree, [...placed, ...HARNESS_PATHS], {
        link: canMountQuota(),
      });
    }
    let seal = await sealEnvironment(
      env,
      layout.hostDir,
      codebase ? [path.join(codebase.cachePath, 'objects')] : [],
    );
    await handOverOwnership(env);
    if (canMountQuota()) {
      quota = await mountQuota(layout.envRoot, base, evalSet.resources.disk_bytes);
      env = viewOf(env, base, quota.view);
      seal = { ...seal, workTree: env.workTree };
    }
    // The hand-over changed every file's ctime: the seal's index learns them now, off the critical path.
    if (asRoot) await refreshSeal(seal);
    // The agent's model calls leave the container through this socket alone (network none).
    if (ctx.agent) {
      gateway = await openRunGateway({
        source: ctx.agent.sourceFor(planned),
        logPath: layout.modelCallsJsonl,
        paths: ctx.agent.adapter.gatewayPaths,
      });
    }
    const container = await startContainer(ctx.client, {
      image: runImageOf(ctx, e.id),
      user: `${keeper}:${keeper}`,
      execUser: agentUser,
      workingDir: containerWorkTree,
      // A session commits; the container has no git identity of its own.
      env: {
        HOME: home,
        GIT_AUTHOR_NAME: 'evalrig agent',
        GIT_AUTHOR_EMAIL: 'agent@evalrig.invalid',
        GIT_COMMITTER_NAME: 'evalrig agent',
        GIT_COMMITTER_EMAIL: 'agent@evalrig.invalid',
        [GH_RECORDER_ENV]: path.posix.join(CONTAINER.socketDir, 'gh.sock'),
      },
      labels: {
        [LABELS.campaign]: ctx.campaign,
        [LABELS.run]: planned.key,
        'evalrig.pid': String(process.pid),
      },
      binds: [
        { host: env.workTree, container: containerWorkTree },
        { host: env.originPath, container: containerOrigin },
        { host: evalSet.dir, container: CONTAINER.evalSetDir, readOnly: true },
        { host: layout.socketDir, container: CONTAINER.socketDir, readOnly: true },
        ...(ctx.agent && gateway ? ctx.agent.binds(gateway.hostDir) : []),
      ],
      limits: {
        memoryBytes: evalSet.resources.memory_bytes,
        cpus: evalSet.resources.cpus,
        pids: evalSet.resources.pids,
      },
    });
    ctx.live.add(container);
    if (!asRoot) await container.exec(['mkdir', '-p', home]);
    const ready = { planned, layout, env, seal, quota, recorder, gateway, seededPulls };
    return { ...ready, container, agentUser, containerWorkTree, home };
  } catch (caught) {
    const error = caught instanceof Error ? caught.message : String(caught);
    const partial = { planned, layout, env, quota, recorder, gateway, seededPulls };
    return { ...partial, agentUser, containerWorkTree, home, error };
  }
}

/** The image a run of eval `id` starts from: its run image, or that with the agent built in. */
function runImageOf(ctx: CampaignContext, id: string): string {
  const tag = (ctx.images?.get(id) ?? ctx.image).tag;
  return ctx.agent?.imageFor(tag) ?? tag;
}

/** Releases what a prepared run holds when it will not be played (an interrupted campaign). */
export async function discardPreparedRun(
  ctx: CampaignContext,
  prepared: PreparedRun,
): Promise<void> {
  if (prepared.container) {
    ctx.live.delete(prepared.container);
    await prepared.container.remove().catch(() => undefined);
  }
  await releaseEnvironment(prepared, false);
}

/** The environment seen through its quota's overlay (`view`) instead of `base`. */
function viewOf(env: Environment, base: string, view: string): Environment {
  const moved = (p: string) => path.join(view, path.relative(base, p));
  return { ...env, workTree: moved(env.workTree), originPath: moved(env.originPath) };
}

/**
 * Unmounts a run's quota and removes its environment, or keeps it (what the
 * run left, copied out of the quota's memory first) for a person to look at.
 */
async function releaseEnvironment(prepared: PreparedRun, keep: boolean): Promise<void> {
  const { quota, layout } = prepared;
  await prepared.recorder?.close();
  await prepared.gateway?.close();
  if (keep) {
    if (quota) {
      await execa('cp', ['-a', quota.view, path.join(layout.envRoot, 'kept')], { reject: false });
      await quota.unmount();
    }
    return;
  }
  await quota?.unmount();
  await rm(layout.envRoot, { recursive: true, force: true });
}

function counters(d: DiffCounts): DiffCounters {
  return {
    files_added: d.files_added,
    files_modified: d.files_modified,
    files_deleted: d.files_deleted,
    lines_added: d.lines_added,
    lines_removed: d.lines_removed,
    untracked: d.untracked,
  };
}

/** Runs one check in the run's container (its output capped); a check cut by its time fails. */
async function playCheck(
  container: RunContainer,
  check: { readonly name: string; readonly run: string },
  where: { readonly containerWorkTree: string; readonly home: string; readonly timeoutMs: number },
): Promise<CheckResult> {
  const r = await container.exec(['sh', '-c', check.run], {
    workingDir: where.containerWorkTree,
    env: { HOME: where.home },
    timeoutMs: where.timeoutMs,
    maxOutputBytes: CHECK_OUTPUT_BYTES,
  });
  if (r.timedOut) await container.kill();
  const output = `${r.stdout}${r.stderr}`;
  return {
    name: check.name,
    command: check.run,
    passed: !r.timedOut && r.exitCode === 0,
    exit_code: r.exitCode,
    duration_ms: r.durationMs,
    output: r.truncated ? output + truncationMark(CHECK_OUTPUT_BYTES) : output,
    truncated: r.truncated,
  };
}

/**
 * Plays a prepared run: the turns (one exec each in its container) with a
 * stop recorded after each, the checks, the final diff; then writes run.json
 * last (its presence means the run is finished) and hands the container's
 * removal to `ctx.removals`, off the critical path.
 *
 * Each turn ends with every process of the agent stopped, then the stop is
 * read. What the agent did to its environment that makes a stop unreadable
 * ends the run as `broken` (its outcome, counted); anything else that fails
 * is the harness's (`failed`, redone on resume). Either names its phase.
 */
export async function playRun(ctx: CampaignContext, prepared: PreparedRun): Promise<RunOutcome> {
  const { evalSet } = ctx;
  const { planned, layout, env, seal, container, containerWorkTree, home, agentUser } = prepared;
  const { recorder } = prepared;
  // The host's copy of the gh record: what measures read, whatever the repository's says.
  const ghRecord = () => ({
    calls: recorder?.calls() ?? [],
    pulls: recorder?.state()?.pull_requests ?? prepared.seededPulls,
  });
  const tampered = new Set<string>();
  const checkRecord = async (gitDir: string) => {
    for (const reason of await recordTampering(gitDir, ghRecord())) tampered.add(reason);
    const refused = recorder?.problemCount() ?? 0;
    if (refused > 0) {
      const first = recorder!.problems()[0]?.reason ?? '';
      tampered.add(`the host refused ${refused} report(s) of gh calls (first: ${first})`);
    }
  };
  const e = planned.eval;
  const startedAt = new Date();
  const deadline = startedAt.getTime() + (ctx.timeoutS ?? e.timeout) * 1000;

  const stops: StopRecord[] = [];
  const stopFiles: string[] = [];
  const checks: CheckResult[] = [];
  let status: RunStatus = prepared.error === undefined ? 'completed' : 'failed';
  let error = prepared.error;
  // Where the run was, so that a failure names its phase.
  let phase = prepared.error === undefined ? 'start' : 'prepare';
  // Set when the run failed in a named phase that later steps must not overwrite (`agent`).
  let failedPhase: string | undefined;
  let stoppedAtHandOver = false;
  let finalDiff: DiffCounters = ZERO_DIFF;

  try {
    if (!env || !seal || !container || !recorder) {
      throw new Error(error ?? 'the run was not prepared');
    }
    const messages = [{ message: e.prompt, phase: e.phase }, ...e.turns];
    const gateway = prepared.gateway?.gateway;
    const turnCtx = { ...ctx, planned, layout, container, containerWorkTree, home, gateway };
    const play = turnPlayer(turnCtx);
    // The patch is only wanted at the end: a stop measures counts alone, but
    // the last planned turn's stop takes the patch too, reused as the final
    // diff when nothing ran since (no check, no cut turn).
    let lastDiff: DiffMeasure | undefined;
    let turn = 0;
    const stopCtx: StopContext = {
      container,
      workTree: env.workTree,
      originPath: env.originPath,
      containerWorkTree,
      probeEnv: { HOME: home },
      probes: evalSet.probes,
      handOver: evalSet.hand_over,
      measureDiff: async () => {
        if (turn < messages.length) return counters(await measureDiff(seal, { patch: false }));
        lastDiff = await measureDiff(seal, { maxPatchBytes: ctx.maxPatchBytes });
        return counters(lastDiff);
      },
      isAncestor: (objects, ancestor, descendant) =>
        isAncestorIn(seal, objects, ancestor, descendant),
      ghRecord,
    };

    // A fresh environment: a seeded state holds pull requests, never calls.
    let afterSeq = 0;
    for (const [index, message] of messages.entries()) {
      const n = index + 1;
      turn = n;
      phase = `turn ${n}`;
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        status = 'timed_out';
        break;
      }
      lastDiff = undefined;
      const timeoutMs = Math.min(e.turn_timeout * 1000, remaining);
      const played = await play({ n, ...message, timeoutMs });
      const r = played.exec;
      if (r.timedOut) {
        // The cut turn reached no stop: kill the session, record no stop for it.
        await container.kill();
        status = 'timed_out';
        break;
      }
      phase = `stop ${n}`;
      // Whatever the turn left running in the background ends here, before the stop is read.
      await container.stopProcessesOf(agentUser);
      const stop = await collectStop(stopCtx, {
        turn: n,
        phase: message.phase,
        exitCode: r.exitCode,
        durationMs: r.durationMs,
        afterSeq,
      });
      await checkRecord(path.join(env.workTree, '.git'));
      const file = stopFileName(n);
      // What the agent said last: message checks, the report and the judge read it here.
      const agentTurn = played.agent;
      const finalMessage = agentTurn
        ? agentTurn.final_message === null
          ? null
          : capMessage(agentTurn.final_message)
        : commandFinalMessage(
            r.stdout,
            r.truncated && Buffer.byteLength(r.stdout) >= ctx.maxOutputBytes,
          );
      const kept: StopRecord = {
        ...stop,
        final_message: finalMessage,
        ...(agentTurn ? { agent: agentTurn } : {}),
      };
      await writeArtifact('stop', path.join(layout.stopsDir, file), kept);
      stops.push(kept);
      stopFiles.push(`stops/${file}`);
      afterSeq = stop.calls.reduce((m, c) => Math.max(m, c.seq), afterSeq);
      // An agent that cannot start, exits non-zero, reports an error or never finishes its
      // stream played no real turn: the run failed in the agent (its stop is kept, no more turns).
      const agentFailure = whyAgentFailed(played);
      if (agentFailure) {
        status = 'failed';
        error = `turn ${n}: ${agentFailure}`;
        failedPhase = 'agent';
        break;
      }
      if (ctx.stopAtHandOver && stop.hand_over) {
        stoppedAtHandOver = true;
        break;
      }
    }

    if (status === 'completed') {
      phase = 'checks';
      for (const check of e.checks) {
        lastDiff = undefined; // a check may change the tree: the diff is read again after
        const remaining = Math.max(1000, deadline - Date.now());
        const timeoutMs = Math.min(e.turn_timeout * 1000, remaining);
        checks.push(await playCheck(container, check, { containerWorkTree, home, timeoutMs }));
      }
    }

    phase = 'record';
    // A check (or a cut turn) may have left processes: nothing runs while the last diff is read.
    if (!lastDiff) await container.kill();
    const diff = lastDiff ?? (await measureDiff(seal, { maxPatchBytes: ctx.maxPatchBytes }));
    finalDiff = counters(diff);
    await writeFile(layout.diffPatch, diff.patch);
  } catch (caught) {
    // A lost engine is the harness's failure whatever it interrupted.
    status =
      isBrokenByAgent(caught) && !(await engineAtFault(ctx.client, caught)) ? 'broken' : 'failed';
    error = `${phase}: ${caught instanceof Error ? caught.message : String(caught)}`;
  } finally {
    if (container) {
      ctx.live.delete(container);
      ctx.removals.push(container.remove().catch(() => undefined));
    }
  }

  // The host's copy of the record is the one kept beside run.json and measured;
  // the repository's is only compared with it (processes are stopped by now).
  if (env) {
    await checkRecord(path.join(env.workTree, '.git')).catch((caught: unknown) => {
      tampered.add(`the record could not be compared: ${(caught as Error).message}`);
    });
  }
  const allCalls = [...ghRecord().calls];
  await writeFile(layout.callsJsonl, allCalls.map((c) => `${JSON.stringify(c)}\n`).join(''));

  const finishedAt = new Date();
  const durationMs = finishedAt.getTime() - startedAt.getTime();
  const codebase = ctx.codebases.get(e.id);
  const record: RunRecord = {
    schema: 'evalrig/run@1',
    campaign: ctx.campaign,
    eval: e.id,
    condition: planned.condition.name,
    run: planned.run,
    status,
    ...(error === undefined ? {} : { error }),
    ...(status === 'failed' || status === 'broken' ? { phase: failedPhase ?? phase } : {}),
    ...(tampered.size > 0 ? { tampered: [...tampered] } : {}),
    started_at: startedAt.toISOString(),
    finished_at: finishedAt.toISOString(),
    duration_ms: durationMs,
    turns_planned: 1 + e.turns.length,
    turns_completed: stops.length,
    stopped_at_hand_over: stoppedAtHandOver,
    stops: stopFiles,
    stops_sha256: await digestStops(layout.dir, stopFiles),
    ...(codebase ? { codebase: provenanceOf(codebase.resolved) } : {}),
    image: ctx.images?.get(e.id) ?? { tag: ctx.image.tag, id: ctx.image.id },
    diff: finalDiff,
    checks,
    message_checks: runMessageChecks(e.message_checks, stops),
    measures: measureRun({
      stops,
      checks,
      diff: finalDiff,
      turnsCompleted: stops.length,
      durationMs,
      stoppedAtHandOver,
      status,
      allCalls,
      tampered: tampered.size > 0,
    }),
    ...(ctx.agent
      ? {
          agent: runAgentRecord(
            ctx.agent.runIdentity((ctx.images?.get(e.id) ?? ctx.image).tag),
            agentTurns(stops),
          ),
        }
      : {}),
  };
  // What a signal cut is unfinished, whatever it measured: resume replays it.
  if (ctx.cut?.()) return { status: 'failed', record };
  await writeArtifact('run', layout.runJson, record);
  // Off the critical path too: nothing reads the environment any more.
  const keep = ctx.keepEnvironments || status === 'failed';
  ctx.removals.push(releaseEnvironment(prepared, keep).catch(() => undefined));
  return { status, record };
}
