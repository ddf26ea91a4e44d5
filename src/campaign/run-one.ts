import { chmod, lstat, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import {
  digestStops,
  writeArtifact,
  writeFileAtomic,
  type CheckResult,
  type DiffCounters,
  type EngineRecord,
  type GhCall,
  type GhPullRequest,
  type ImageRecord,
  type RunRecord,
  type RunLimitName,
  type RunStatus,
  type RunTreatment,
  type StopRecord,
  type TurnAgentRecord,
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
  ProcessesNotStoppedError,
  SandboxFileError,
  type Owner,
  type Sandbox,
  type SandboxProvider,
} from '../sandbox/index.js';
import { provenanceOf, type ResolvedCodebase } from '../source/index.js';
import { flightFiles, witnessTurn } from '../flight/index.js';
import { needlesOf, runTreatment, type StagedInstruction } from '../treatment/index.js';
import {
  openRunGateway,
  type BodyBudget,
  type RunGateway,
  type UpstreamLimiters,
} from '../gateway/index.js';
import { CampaignBudget, RunMeter } from './budget.js';
import {
  agentTurns,
  priceCall,
  runAgentRecord,
  turnAgentRecord,
  type CampaignAgent,
} from './agent.js';
import { CONTAINER, runLayout, stopFileName, type RunLayout } from './layout.js';
import type { PlannedRun } from './plan.js';
import { truncationMark, turnPlayer, whyAgentFailed, type PlayedRunTurn } from './turns.js';

/** The image user's uid: environments are handed to it (or copied in as its) when evalrig runs as root. */
const IMAGE_UID = 1000;
/**
 * The user of a run sandbox's main process: not the agent's, so that at the
 * end of each turn every process of the agent can be stopped while the
 * sandbox lives on (see Sandbox.stopProcessesOf).
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
  /** Where runs execute (today the one Docker engine, its folders mounted). */
  readonly sandboxes: SandboxProvider;
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
  /** Sandboxes of runs in flight, so a signal can remove them. */
  readonly live: Set<Sandbox>;
  /** Clean-ups started off the critical path; the campaign awaits them before it ends. */
  readonly removals: Promise<unknown>[];
  /** True once a signal cut the campaign: a cut run is never written as finished. */
  readonly cut?: () => boolean;
  /** An adapter agent (claude-code): installed, preflighted, each run's model source. */
  readonly agent?: CampaignAgent;
  /** The memory every run's model gateway shares for bodies in flight. */
  readonly modelBudget?: BodyBudget;
  /** What each condition stages that the model should receive, by condition name. */
  readonly treatments?: ReadonlyMap<string, readonly StagedInstruction[]>;
  /** Each engine's record by its address (a sandbox's `engine`): run.json names the run's. */
  readonly engines?: ReadonlyMap<string, EngineRecord>;
  /** The campaign's spending against `--max-cost`: no turn starts past it. */
  readonly budget?: CampaignBudget;
  /** One limiter per upstream, shared by every run's gateway and the judge's. */
  readonly limiters?: UpstreamLimiters;
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
    // A tree a copying sandbox refuses to bring back (over its caps, names not UTF-8).
    error instanceof SandboxFileError ||
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
async function engineAtFault(sandboxes: SandboxProvider, caught: unknown): Promise<boolean> {
  if (sandboxes.lost?.()) return true;
  if (!(caught instanceof ProcessesNotStoppedError) || !caught.timedOut) return false;
  return sandboxes.check().then(
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

/** A run whose environment and sandbox are ready: what {@link prepareRun} hands to {@link playRun}. */
export interface PreparedRun {
  readonly planned: PlannedRun;
  readonly layout: RunLayout;
  readonly env?: Environment;
  /** The host's own record of the environment: what every measure reads. */
  readonly seal?: Seal;
  /** The run's disk quota (evalrig as root, host folders mounted): the sandbox sees its overlay. */
  readonly quota?: QuotaView;
  /** The host's own copy of the gh record, reported call by call over a socket. */
  readonly recorder?: GhRecorder;
  /** An adapter agent's model gateway (its socket shared with the sandbox); closed on release. */
  readonly gateway?: RunGateway;
  /** The run's figures as its gateway relays calls, against its limits and the budget. */
  readonly meter?: RunMeter;
  /** Pull requests the eval seeded into the stand-in's state (no call recorded). */
  readonly seededPulls: readonly GhPullRequest[];
  readonly sandbox?: Sandbox;
  /** The agent's user in the sandbox (`uid:gid`). */
  readonly agentUser: string;
  readonly containerWorkTree: string;
  /** The local bare origin inside the sandbox. */
  readonly containerOrigin: string;
  readonly home: string;
  /** Set when preparation failed: the run is recorded as failed with it. */
  readonly error?: string;
  /** Where preparation failed: the environment (`prepare`) or the sandbox's start (`start`). */
  readonly failedIn?: 'prepare' | 'start';
}

/** Where one run's things are, on the host and in its sandbox, and whose they are. */
interface RunPlace {
  readonly layout: RunLayout;
  readonly repo: string;
  readonly owner: string;
  readonly containerWorkTree: string;
  readonly containerOrigin: string;
  readonly asRoot: boolean;
  readonly home: string;
  readonly agentUser: string;
  readonly agent: Owner;
  readonly keeper: number;
}

/**
 * The agent's uid and gid in run sandboxes: the image's 1000 when evalrig runs as root
 * (environments are handed, or copied in, to it), else the orchestrator's own.
 */
function agentOwnerOfRuns(): Owner {
  return process.getuid?.() === 0
    ? { uid: IMAGE_UID, gid: IMAGE_UID }
    : { uid: process.getuid?.() ?? IMAGE_UID, gid: process.getgid?.() ?? IMAGE_UID };
}

/** The agent's user in run sandboxes (`uid:gid`), as an exec names it. */
export function agentUserOfRuns(): string {
  const agent = agentOwnerOfRuns();
  return `${agent.uid}:${agent.gid}`;
}

function placeRun(ctx: CampaignContext, planned: PlannedRun): RunPlace {
  const repo = repositoryName(ctx.evalSet, ctx.codebases.get(planned.eval.id)?.resolved);
  const owner = ctx.evalSet.repo_owner;
  const asRoot = process.getuid?.() === 0;
  const agent = agentOwnerOfRuns();
  return {
    layout: runLayout(ctx.outDir, planned.key),
    repo,
    owner,
    containerWorkTree: path.posix.join(CONTAINER.workRoot, repo),
    containerOrigin: path.posix.join(CONTAINER.remoteRoot, owner, `${repo}.git`),
    asRoot,
    home: asRoot ? CONTAINER.home : '/tmp/evalrig-home',
    agentUser: `${agent.uid}:${agent.gid}`,
    agent,
    keeper: process.getuid?.() === KEEPER_UID ? KEEPER_UID - 1 : KEEPER_UID,
  };
}

/** What a preparation made so far: whatever happens next, the run releases it. */
interface Opened {
  env?: Environment;
  seal?: Seal;
  quota?: QuotaView;
  recorder?: GhRecorder;
  gateway?: RunGateway;
  meter?: RunMeter;
  seededPulls: GhPullRequest[];
  sandbox?: Sandbox;
}

/**
 * Prepares a run: a clean run folder, its environment (checkout, overlay,
 * staged paths, baseline, local origin, seeded pull requests) handed to the
 * sandbox's user, and its sandbox started. The campaign prepares the next
 * runs while earlier ones play, so this work is off the critical path.
 * Never throws: a failure is carried in `error`, with the phase in `failedIn`.
 */
export async function prepareRun(ctx: CampaignContext, planned: PlannedRun): Promise<PreparedRun> {
  const place = placeRun(ctx, planned);
  const opened: Opened = { seededPulls: [] };
  const where = {
    planned,
    layout: place.layout,
    agentUser: place.agentUser,
    containerWorkTree: place.containerWorkTree,
    containerOrigin: place.containerOrigin,
    home: place.home,
  };
  let phase: 'prepare' | 'start' = 'prepare';
  try {
    await prepareEnvironmentOf(ctx, planned, place, opened);
    phase = 'start';
    await startSandbox(ctx, planned, place, opened);
    return { ...where, ...opened };
  } catch (caught) {
    const error = caught instanceof Error ? caught.message : String(caught);
    return { ...where, ...opened, error, failedIn: phase };
  }
}

/** The `prepare` phase: the run's folders, environment, seal, recorder and gateway, in `opened`. */
async function prepareEnvironmentOf(
  ctx: CampaignContext,
  planned: PlannedRun,
  place: RunPlace,
  opened: Opened,
): Promise<void> {
  const { layout } = place;
  const e = planned.eval;
  const codebase = ctx.codebases.get(e.id);
  // A quota's overlay needs mounts on the host: only for a sandbox that mounts host folders.
  const quotaWanted = ctx.sandboxes.mountsHostFolders && canMountQuota();
  await rm(layout.dir, { recursive: true, force: true });
  await rm(layout.envRoot, { recursive: true, force: true });
  await mkdir(layout.stopsDir, { recursive: true });
  await claimPrivateFolder(path.join(ctx.outDir, 'work'));
  const base = path.join(layout.envRoot, 'base');
  const env = await prepareEnvironment({
    root: base,
    codebase,
    overlay: e.files,
    staged: planned.condition.stage,
    forcedPaths: HARNESS_PATHS,
    remote: { owner: place.owner, name: place.repo },
    originUrl: place.containerOrigin,
    startBranch: e.start?.branch,
  });
  opened.env = env;
  opened.seededPulls = await seedPullRequests(planned, env, place.owner, place.repo);
  opened.recorder = await startRecorder(layout);
  const setup = ctx.setups?.get(e.id);
  if (setup) {
    // Ignored by the codebase, so out of the baseline and of the diff; placed paths win.
    const placed = [...e.files, ...planned.condition.stage].map((p) => p.to);
    // Linked when the run sees its environment through an overlay (a write copies up).
    await placeSetupOutput(setup, env.workTree, [...placed, ...HARNESS_PATHS], {
      link: quotaWanted,
    });
  }
  opened.seal = await sealEnvironment(
    env,
    layout.hostDir,
    codebase ? [path.join(codebase.cachePath, 'objects')] : [],
  );
  // Mounted, the host folders are the sandbox's own: handed over here. Copied, the archive says whose.
  if (ctx.sandboxes.mountsHostFolders) await handOverMounted(ctx, place, opened, quotaWanted);
  // The agent's model calls leave the sandbox through this socket alone (network none).
  if (ctx.agent) {
    const files = flightFiles(layout.dir);
    const source = ctx.agent.sourceFor(planned);
    const meter = new RunMeter(ctx.evalSet.limits, ctx.budget ?? new CampaignBudget(), priceCall);
    opened.meter = meter;
    const limiter = ctx.limiters?.for(source);
    opened.gateway = await openRunGateway({
      source,
      ...(limiter ? { limiter } : {}),
      admit: () => meter.refusal(),
      onCall: (call) => meter.onCall(call),
      logPath: files.calls,
      // The run's flight record: the host's witness of the session.
      record: { blocksPath: files.blocks, manifestPath: files.manifest },
      paths: ctx.agent.adapter.gatewayPaths,
      ...(ctx.modelBudget ? { budget: ctx.modelBudget } : {}),
      needles: needlesOf(ctx.treatments?.get(planned.condition.name) ?? []),
    });
  }
}

/**
 * Hands a mounted environment to the sandbox's user, behind its quota's
 * overlay when there is one (the environment and seal then point at the view).
 */
async function handOverMounted(
  ctx: CampaignContext,
  place: RunPlace,
  opened: Opened,
  quotaWanted: boolean,
): Promise<void> {
  const base = path.join(place.layout.envRoot, 'base');
  await handOverOwnership(opened.env!);
  if (quotaWanted) {
    const disk = ctx.evalSet.resources.disk_bytes;
    opened.quota = await mountQuota(place.layout.envRoot, base, disk);
    opened.env = viewOf(opened.env!, base, opened.quota.view);
    opened.seal = { ...opened.seal!, workTree: opened.env.workTree };
  }
  // The hand-over changed every file's ctime: the seal's index learns them now, off the critical path.
  if (place.asRoot) await refreshSeal(opened.seal!);
}

/** The `start` phase: the run's sandbox, with its trees, sockets and the agent's binary shared. */
async function startSandbox(
  ctx: CampaignContext,
  planned: PlannedRun,
  place: RunPlace,
  opened: Opened,
): Promise<void> {
  const { evalSet } = ctx;
  const env = opened.env!;
  const agentShares =
    ctx.agent && opened.gateway
      ? ctx.agent.shares(opened.gateway.hostDir)
      : { files: [], sockets: [] };
  const keeper = `${place.keeper}:${place.keeper}`;
  opened.sandbox = await ctx.sandboxes.start({
    image: runImageOf(ctx, planned.eval.id),
    user: keeper,
    execUser: place.agentUser,
    workingDir: place.containerWorkTree,
    // A session commits; the sandbox has no git identity of its own.
    env: {
      HOME: place.home,
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
    folders: [
      { host: env.workTree, container: place.containerWorkTree, owner: place.agent },
      { host: env.originPath, container: place.containerOrigin, owner: place.agent },
      { host: evalSet.dir, container: CONTAINER.evalSetDir, readOnly: true },
    ],
    sockets: [
      { host: place.layout.socketDir, container: CONTAINER.socketDir, names: ['gh.sock'] },
      ...agentShares.sockets,
    ],
    files: agentShares.files,
    // A copying engine holds the run's host copies to its disk too (a mounted one has its quota).
    diskBytes: evalSet.resources.disk_bytes,
    limits: {
      memoryBytes: evalSet.resources.memory_bytes,
      cpus: evalSet.resources.cpus,
      pids: evalSet.resources.pids,
    },
  });
  ctx.live.add(opened.sandbox);
  if (!place.asRoot) await opened.sandbox.exec(['mkdir', '-p', place.home]);
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
  if (prepared.sandbox) {
    ctx.live.delete(prepared.sandbox);
    await prepared.sandbox.remove().catch(() => undefined);
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

/** A prepared run with every part there: what the phases after the start work on. */
interface ReadyRun extends PreparedRun {
  readonly env: Environment;
  readonly seal: Seal;
  readonly sandbox: Sandbox;
  readonly recorder: GhRecorder;
}

/**
 * What a run carries from phase to phase. `phase` is where it is, so that a
 * failure names it: prepare, start, turn N, collect (a stop), checks, record;
 * `failedPhase` is set by a phase whose failure later steps must not rename
 * (`agent`: an adapter agent's own failure).
 */
interface RunState {
  status: RunStatus;
  error?: string;
  phase: string;
  failedPhase?: string;
  stoppedAtHandOver: boolean;
  finalDiff: DiffCounters;
  /** The last planned turn's stop takes the patch too, reused as the final diff when nothing ran since. */
  lastDiff?: DiffMeasure;
  readonly stops: StopRecord[];
  readonly stopFiles: string[];
  readonly checks: CheckResult[];
  readonly tampered: Set<string>;
  /** Model calls already counted in a turn (their `seq`): each call belongs to one turn. */
  readonly witnessed: Set<number>;
  /** The skills the agent's own start-up line listed (its claim), or null. */
  listedSkills: readonly string[] | null;
  readonly startedAt: Date;
  /** Epoch ms; moved later by the time the run's calls queued behind the upstream's limits. */
  deadline: number;
  /** For limit_reached: which limit. */
  limit?: RunLimitName;
  /** The last turn's time queued behind the upstream's limits (kept in its stop). */
  queuedMs?: number;
}

/**
 * Plays a prepared run, phase after phase: the turns (one exec each in its
 * sandbox), each ending in a stop that is collected, the checks, the final
 * diff; then writes run.json last (its presence means the run is finished)
 * and hands the sandbox's removal to `ctx.removals`, off the critical path.
 *
 * What the agent did to its environment that makes a stop unreadable ends the
 * run as `broken` (its outcome, counted); anything else that fails is the
 * harness's (`failed`, redone on resume). Either names its phase.
 */
export async function playRun(ctx: CampaignContext, prepared: PreparedRun): Promise<RunOutcome> {
  const startedAt = new Date();
  const state: RunState = {
    status: prepared.error === undefined ? 'completed' : 'failed',
    error: prepared.error,
    phase: prepared.failedIn ?? (prepared.error === undefined ? 'start' : 'prepare'),
    stoppedAtHandOver: false,
    finalDiff: ZERO_DIFF,
    stops: [],
    stopFiles: [],
    checks: [],
    tampered: new Set(),
    witnessed: new Set(),
    listedSkills: null,
    startedAt,
    deadline: startedAt.getTime() + (ctx.timeoutS ?? prepared.planned.eval.timeout) * 1000,
  };
  try {
    const run = readyRun(prepared);
    await playTurns(ctx, run, state);
    if (state.status === 'completed') await runChecks(ctx, run, state);
    await measureFinalDiff(ctx, run, state);
  } catch (caught) {
    // A lost engine is the harness's failure whatever it interrupted.
    const broken = isBrokenByAgent(caught) && !(await engineAtFault(ctx.sandboxes, caught));
    state.status = broken ? 'broken' : 'failed';
    state.error = `${state.phase}: ${caught instanceof Error ? caught.message : String(caught)}`;
  } finally {
    if (prepared.sandbox) {
      ctx.live.delete(prepared.sandbox);
      ctx.removals.push(prepared.sandbox.remove().catch(() => undefined));
    }
  }
  return recordRun(ctx, prepared, state);
}

function readyRun(prepared: PreparedRun): ReadyRun {
  const { env, seal, sandbox, recorder } = prepared;
  if (prepared.error !== undefined || !env || !seal || !sandbox || !recorder) {
    throw new Error(prepared.error ?? 'the run was not prepared');
  }
  return { ...prepared, env, seal, sandbox, recorder };
}

/** The turns, each ended by its collected stop, until the last, a cut, an agent's failure or a hand-over. */
async function playTurns(ctx: CampaignContext, run: ReadyRun, state: RunState): Promise<void> {
  const e = run.planned.eval;
  const messages = [{ message: e.prompt, phase: e.phase }, ...e.turns];
  const play = turnPlayer({
    ...ctx,
    planned: run.planned,
    layout: run.layout,
    sandbox: run.sandbox,
    containerWorkTree: run.containerWorkTree,
    home: run.home,
  });
  // A fresh environment: a seeded state holds pull requests, never calls.
  let afterSeq = 0;
  for (const [index, message] of messages.entries()) {
    const n = index + 1;
    state.phase = `turn ${n}`;
    const remaining = state.deadline - Date.now();
    if (remaining <= 0) {
      state.status = 'timed_out';
      return;
    }
    state.lastDiff = undefined;
    const timeoutMs = Math.min(e.turn_timeout * 1000, remaining);
    const spending = ctx.budget?.startTurn() ?? NO_BUDGET;
    if (spending === null) return cutByLimit(state, 'campaign_cost');
    const queued = queuedClock(run);
    const cost0 = run.meter?.costUsd ?? 0;
    const played = await play({ n, ...message, timeoutMs, extraMs: queued.ms });
    spending.end((run.meter?.costUsd ?? 0) - cost0);
    // The time queued behind the upstream's limits is the run's too, not charged to it.
    state.deadline += queued.ms();
    state.queuedMs = queued.ms();
    if (played.exec.timedOut) {
      // The cut turn reached no stop: kill the session, record no stop for it.
      await run.sandbox.kill();
      state.status = 'timed_out';
      return;
    }
    state.phase = 'collect';
    const last = n === messages.length;
    const stop = await collectTurnStop(
      ctx,
      run,
      state,
      { n, phase: message.phase, last },
      played,
      afterSeq,
    );
    afterSeq = stop.calls.reduce((m, c) => Math.max(m, c.seq), afterSeq);
    // A limit reached (the gateway refused the calls past it) ends the run: its outcome.
    if (run.meter?.reached) return cutByLimit(state, run.meter.reached);
    // An agent that cannot start, exits non-zero, reports an error or never finishes its
    // stream played no real turn: the run failed in the agent (its stop is kept, no more turns).
    const agentFailure = whyAgentFailed({ exec: played.exec, agent: stop.agent });
    if (agentFailure) {
      state.status = 'failed';
      state.error = `turn ${n}: ${agentFailure}`;
      state.failedPhase = 'agent';
      return;
    }
    if (ctx.stopAtHandOver && stop.hand_over) {
      state.stoppedAtHandOver = true;
      return;
    }
  }
}

/** A turn the campaign has no budget for (no `--max-cost`: every turn may start). */
const NO_BUDGET = { end: () => undefined };

/** Ends the run as `limit_reached`, naming the limit. */
function cutByLimit(state: RunState, limit: RunLimitName): void {
  state.status = 'limit_reached';
  state.limit = limit;
}

/** The wall time the run's calls waited behind the upstream's limits since now. */
function queuedClock(run: ReadyRun): { ms: () => number } {
  const gateway = run.gateway?.gateway;
  if (!gateway) return { ms: () => 0 };
  const start = gateway.queuedMs();
  return { ms: () => gateway.queuedMs() - start };
}

/** Brings the sandbox's work tree and origin to the host folders the measures read (mounted: nothing moves). */
async function syncTrees(run: ReadyRun): Promise<void> {
  await Promise.all([
    run.sandbox.syncOut(run.containerWorkTree, run.env.workTree),
    run.sandbox.syncOut(run.containerOrigin, run.env.originPath),
  ]);
}

/** The host's copy of the gh record: what measures read, whatever the repository's says. */
function ghRecordOf(prepared: PreparedRun): ReturnType<StopContext['ghRecord']> {
  return {
    calls: prepared.recorder?.calls() ?? [],
    pulls: prepared.recorder?.state()?.pull_requests ?? prepared.seededPulls,
  };
}

/** Compares the repository's record with the host's, noting every difference as tampering. */
async function checkRecord(prepared: PreparedRun, tampered: Set<string>): Promise<void> {
  const gitDir = path.join(prepared.env!.workTree, '.git');
  for (const reason of await recordTampering(gitDir, ghRecordOf(prepared))) tampered.add(reason);
  const refused = prepared.recorder?.problemCount() ?? 0;
  if (refused > 0) {
    const first = prepared.recorder!.problems()[0]?.reason ?? '';
    tampered.add(`the host refused ${refused} report(s) of gh calls (first: ${first})`);
  }
}

/** What the stop of turn `n` reads, and where. */
function stopContextOf(
  ctx: CampaignContext,
  run: ReadyRun,
  state: RunState,
  last: boolean,
): StopContext {
  return {
    sandbox: run.sandbox,
    workTree: run.env.workTree,
    originPath: run.env.originPath,
    containerWorkTree: run.containerWorkTree,
    probeEnv: { HOME: run.home },
    probes: ctx.evalSet.probes,
    handOver: ctx.evalSet.hand_over,
    // The patch is only wanted at the end: a stop measures counts alone, but
    // the last planned turn's stop takes the patch too.
    measureDiff: async () => {
      if (!last) return counters(await measureDiff(run.seal, { patch: false }));
      state.lastDiff = await measureDiff(run.seal, { maxPatchBytes: ctx.maxPatchBytes });
      return counters(state.lastDiff);
    },
    isAncestor: (objects, ancestor, descendant) =>
      isAncestorIn(run.seal, objects, ancestor, descendant),
    ghRecord: () => ghRecordOf(run),
  };
}

/**
 * The `collect` phase of a turn: every process of the agent stopped, the trees
 * synced out, the stop read and written as stops/stop-NN.json.
 */
async function collectTurnStop(
  ctx: CampaignContext,
  run: ReadyRun,
  state: RunState,
  turn: { readonly n: number; readonly phase: string; readonly last: boolean },
  played: PlayedRunTurn,
  afterSeq: number,
): Promise<StopRecord> {
  // Whatever the turn left running in the background ends here, before the stop is read.
  await run.sandbox.stopProcessesOf(run.agentUser);
  await syncTrees(run);
  const stop = await collectStop(stopContextOf(ctx, run, state, turn.last), {
    turn: turn.n,
    phase: turn.phase,
    exitCode: played.exec.exitCode,
    durationMs: played.exec.durationMs,
    afterSeq,
  });
  await checkRecord(run, state.tampered);
  const agent = played.claim ? await witnessedTurn(run, state, turn.n, played.claim) : undefined;
  const file = stopFileName(turn.n);
  const queued = state.queuedMs ? { queued_ms: Math.round(state.queuedMs) } : {};
  const kept: StopRecord = {
    ...stop,
    final_message: finalMessageOf(ctx, played, agent),
    ...(agent ? { agent: { ...agent, ...queued } } : {}),
  };
  await writeArtifact('stop', path.join(run.layout.stopsDir, file), kept);
  state.stops.push(kept);
  state.stopFiles.push(`stops/${file}`);
  return kept;
}

/**
 * An adapter agent's turn as the host witnessed it: the calls its gateway relayed since the
 * last stop (every process of the agent is stopped by now; what is still in flight is waited
 * for), their figures, the stream beside them, and each disagreement marked as tampering.
 */
async function witnessedTurn(
  run: ReadyRun,
  state: RunState,
  n: number,
  claim: NonNullable<PlayedRunTurn['claim']>,
): Promise<TurnAgentRecord> {
  const gateway = run.gateway?.gateway;
  await gateway?.settled();
  const calls = (gateway?.calls() ?? [])
    .filter((c) => !state.witnessed.has(c.seq))
    .sort((a, b) => a.seq - b.seq);
  for (const c of calls) state.witnessed.add(c.seq);
  state.listedSkills ??= claim.summary.claim.listedSkills;
  const record = turnAgentRecord(n, claim.summary, claim.transcript, witnessTurn(calls, priceCall));
  for (const reason of record.claim?.disagreements ?? []) state.tampered.add(reason);
  return record;
}

/** What the agent said last: message checks, the report and the judge read it in the stop. */
function finalMessageOf(
  ctx: CampaignContext,
  played: PlayedRunTurn,
  agent: TurnAgentRecord | undefined,
): string | null {
  const r = played.exec;
  if (agent) {
    const said = agent.final_message;
    return said === null ? null : capMessage(said);
  }
  return commandFinalMessage(
    r.stdout,
    r.truncated && Buffer.byteLength(r.stdout) >= ctx.maxOutputBytes,
  );
}

/** The `checks` phase: each check's command in the sandbox, pass or fail. */
async function runChecks(ctx: CampaignContext, run: ReadyRun, state: RunState): Promise<void> {
  state.phase = 'checks';
  for (const check of run.planned.eval.checks) {
    state.lastDiff = undefined;
    const remaining = Math.max(1000, state.deadline - Date.now());
    const r = await run.sandbox.exec(['sh', '-c', check.run], {
      workingDir: run.containerWorkTree,
      env: { HOME: run.home },
      timeoutMs: Math.min(run.planned.eval.turn_timeout * 1000, remaining),
      maxOutputBytes: CHECK_OUTPUT_BYTES,
    });
    const output = `${r.stdout}${r.stderr}`;
    state.checks.push({
      name: check.name,
      command: check.run,
      passed: !r.timedOut && r.exitCode === 0,
      exit_code: r.exitCode,
      duration_ms: r.durationMs,
      output: r.truncated ? output + truncationMark(CHECK_OUTPUT_BYTES) : output,
      truncated: r.truncated,
    });
    if (r.timedOut) await run.sandbox.kill();
  }
}

/** The `record` phase's measure: the final diff and its patch, from what the sandbox left. */
async function measureFinalDiff(
  ctx: CampaignContext,
  run: ReadyRun,
  state: RunState,
): Promise<void> {
  state.phase = 'record';
  if (!state.lastDiff) {
    // A check (or a cut turn) may have left processes: nothing runs while the last diff is read.
    await run.sandbox.kill();
    await syncTrees(run);
  }
  const diff =
    state.lastDiff ?? (await measureDiff(run.seal, { maxPatchBytes: ctx.maxPatchBytes }));
  state.finalDiff = counters(diff);
  await writeFile(run.layout.diffPatch, diff.patch);
}

/**
 * Writes what the run did: the host's gh record beside it, then run.json last
 * (what a signal cut is never written), and hands the environment's release
 * to `ctx.removals`.
 */
async function recordRun(
  ctx: CampaignContext,
  prepared: PreparedRun,
  state: RunState,
): Promise<RunOutcome> {
  const { layout } = prepared;
  const { tampered } = state;
  // The host's copy of the record is the one kept beside run.json and measured;
  // the repository's is only compared with it (processes are stopped by now).
  if (prepared.env) {
    await checkRecord(prepared, tampered).catch((caught: unknown) => {
      tampered.add(`the record could not be compared: ${(caught as Error).message}`);
    });
  }
  const allCalls = [...ghRecordOf(prepared).calls];
  await writeFile(layout.callsJsonl, allCalls.map((c) => `${JSON.stringify(c)}\n`).join(''));
  const stopsSha256 = await digestStops(layout.dir, state.stopFiles);
  const record = runRecordOf(ctx, prepared, state, { allCalls, stopsSha256 });
  // What a signal cut is unfinished, whatever it measured: resume replays it.
  if (ctx.cut?.()) return { status: 'failed', record };
  await writeArtifact('run', layout.runJson, record);
  // Off the critical path too: nothing reads the environment any more.
  const keep = ctx.keepEnvironments || state.status === 'failed';
  ctx.removals.push(releaseEnvironment(prepared, keep).catch(() => undefined));
  return { status: state.status, record };
}

/** run.json's `engine`: the record of the engine its sandbox ran on, when it started. */
function engineOf(ctx: CampaignContext, sandbox: Sandbox | undefined): { engine?: EngineRecord } {
  const engine = sandbox === undefined ? undefined : ctx.engines?.get(sandbox.engine);
  return engine === undefined ? {} : { engine };
}

/** run.json's content: what the phases left in `state`, the host's calls, the stops' digest. */
function runRecordOf(
  ctx: CampaignContext,
  prepared: PreparedRun,
  state: RunState,
  read: { readonly allCalls: readonly GhCall[]; readonly stopsSha256: RunRecord['stops_sha256'] },
): RunRecord {
  const { allCalls } = read;
  const { planned } = prepared;
  const e = planned.eval;
  const { status, error, stops, checks, tampered, stoppedAtHandOver } = state;
  const treatment = treatmentOf(ctx, prepared, state);
  const finishedAt = new Date();
  const durationMs = finishedAt.getTime() - state.startedAt.getTime();
  const codebase = ctx.codebases.get(e.id);
  return {
    schema: 'evalrig/run@1',
    campaign: ctx.campaign,
    eval: e.id,
    condition: planned.condition.name,
    run: planned.run,
    status,
    ...(status === 'limit_reached' && state.limit ? { limit: state.limit } : {}),
    ...(error === undefined ? {} : { error }),
    ...(status === 'failed' || status === 'broken'
      ? { phase: state.failedPhase ?? state.phase }
      : {}),
    ...(tampered.size > 0 ? { tampered: [...tampered] } : {}),
    started_at: state.startedAt.toISOString(),
    finished_at: finishedAt.toISOString(),
    duration_ms: durationMs,
    turns_planned: 1 + e.turns.length,
    turns_completed: stops.length,
    stopped_at_hand_over: stoppedAtHandOver,
    stops: state.stopFiles,
    stops_sha256: read.stopsSha256,
    ...(codebase ? { codebase: provenanceOf(codebase.resolved) } : {}),
    image: ctx.images?.get(e.id) ?? { tag: ctx.image.tag, id: ctx.image.id },
    ...engineOf(ctx, prepared.sandbox),
    diff: state.finalDiff,
    checks,
    message_checks: runMessageChecks(e.message_checks, stops),
    measures: measureRun({
      stops,
      checks,
      diff: state.finalDiff,
      turnsCompleted: stops.length,
      durationMs,
      stoppedAtHandOver,
      status,
      allCalls,
      tampered: tampered.size > 0,
      conditionReached: treatment?.reached ?? null,
    }),
    ...(ctx.agent
      ? {
          agent: runAgentRecord(
            ctx.agent.runIdentity((ctx.images?.get(e.id) ?? ctx.image).tag),
            agentTurns(stops),
          ),
        }
      : {}),
    ...(treatment ? { treatment } : {}),
  };
}

/**
 * The treatment check of a run whose gateway witnessed the session: which of its condition's
 * staged instructions a request carried to the model. Undefined without a gateway.
 */
function treatmentOf(
  ctx: CampaignContext,
  prepared: PreparedRun,
  state: RunState,
): RunTreatment | undefined {
  const gateway = prepared.gateway?.gateway;
  if (!ctx.agent || !gateway || prepared.error !== undefined) return undefined;
  const staged = ctx.treatments?.get(prepared.planned.condition.name) ?? [];
  return runTreatment(staged, gateway.needlesSeen(), state.listedSkills);
}
