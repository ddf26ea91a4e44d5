/**
 * What a run carries from phase to phase: the campaign's shared context, where a
 * run's things are (its place), what a preparation opened, the run's state.
 */
import path from 'node:path';
import type { ServiceFailure } from '../../sandbox/index.js';
import type { EvalServices } from '../services.js';
import type { UpstreamLimiters } from '../../gateway/index.js';
import type { CampaignBudget } from '../budget.js';
import type { RunMeter } from '../run-meter.js';
import type {
  PhaseTiming,
  RunLimitName,
  CheckResult,
  DiffCounters,
  EngineRecord,
  GhPullRequest,
  ImageRecord,
  RunRecord,
  RunStatus,
  StopRecord,
} from '../../artifacts/index.js';
import { EvalSet } from '../../config/index.js';
import type { QuotaView, DiffCounts, DiffMeasure, Workspace, Seal } from '../../workspace/index.js';
import type { SetupOutput } from '../../image/index.js';
import type { GhRecorder } from '../../recorder/index.js';
import type { Owner, Sandbox, SandboxProvider } from '../../sandbox/index.js';
import type { ResolvedCodebase } from '../../source/index.js';
import type { StagedInstruction } from '../../treatment/index.js';
import type { BodyBudget, RunGateway } from '../../gateway/index.js';
import type { CampaignAgents } from '../agent.js';
import { CONTAINER, runLayout, type RunLayout } from '../layout.js';
import type { PlannedRun } from '../plan.js';
import type { Fingerprint } from '../reuse/fingerprint.js';
import type { RunFailure } from '../../measure/index.js';

/** The image user's uid: workspaces are handed to it (or copied in as its) when evalrig runs as root. */
export const IMAGE_UID = 1000;

/**
 * The user of a run sandbox's main process: not the agent's, so that at the
 * end of each turn every process of the agent can be stopped while the
 * sandbox lives on (see Sandbox.stopProcessesOf).
 */
const KEEPER_UID = 65534;

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
  readonly keepWorkspaces: boolean;
  /** Each of the agent's stdout and stderr is kept up to this many bytes per turn. */
  readonly maxOutputBytes: number;
  /** An adapter agent's stream of one turn is kept up to this (then cut with a visible mark). */
  readonly maxTranscriptBytes?: number;
  readonly maxPatchBytes: number;
  /** Sandboxes of runs in flight, so a signal can remove them. */
  readonly live: Set<Sandbox>;
  /** The mark on the runs' disk quotas (the campaign's reaper unmounts only those). */
  readonly quotaOwner?: string;
  /** Clean-ups started off the critical path; the campaign awaits them before it ends. */
  readonly removals: Promise<unknown>[];
  /** True once a signal cut the campaign: a cut run is never written as finished. */
  readonly cut?: () => boolean;
  /**
   * The adapter agents by condition name (one, or one per condition in a cross-agent
   * campaign): installed, preflighted, each run's model source. See agentFor.
   */
  readonly agents?: CampaignAgents;
  /** The memory every run's model gateway shares for bodies in flight. */
  readonly modelBudget?: BodyBudget;
  /** What each condition stages that the model should receive, by condition name. */
  readonly treatments?: ReadonlyMap<string, readonly StagedInstruction[]>;
  /** Each engine's record by its address (a sandbox's `engine`): run.json names the run's. */
  readonly engines?: ReadonlyMap<string, EngineRecord>;
  /** Per eval id with services: each one's definition and image, started beside every run. */
  readonly services?: EvalServices;
  /** The campaign's spending against `--max-cost`: no turn starts past it. */
  readonly budget?: CampaignBudget;
  /** One limiter per upstream, shared by every run's gateway and the judge's. */
  readonly limiters?: UpstreamLimiters;
  /** Each planned run's fingerprint by its key: its run.json records it. */
  readonly fingerprints?: ReadonlyMap<string, Fingerprint>;
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

export const ZERO_DIFF: DiffCounters = {
  files_added: 0,
  files_modified: 0,
  files_deleted: 0,
  lines_added: 0,
  lines_removed: 0,
  untracked: 0,
};

/** A run whose workspace and sandbox are ready: what {@link prepareRun} hands to {@link playRun}. */
export interface PreparedRun {
  readonly planned: PlannedRun;
  readonly layout: RunLayout;
  readonly env?: Workspace;
  /** The host's own record of the workspace: what every measure reads. */
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
  /** Where preparation failed: the workspace (`prepare`) or the sandbox's start (`start`). */
  readonly failedIn?: 'prepare' | 'start';
  /** How long `prepare` and `start` took (the run's first phases in run.json). */
  readonly phases: readonly PhaseTiming[];
}

/** Where one run's things are, on the host and in its sandbox, and whose they are. */
export interface RunPlace {
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
 * (workspaces are handed, or copied in, to it), else the orchestrator's own.
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

export function placeRun(ctx: CampaignContext, planned: PlannedRun): RunPlace {
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
export interface Opened {
  env?: Workspace;
  seal?: Seal;
  quota?: QuotaView;
  recorder?: GhRecorder;
  gateway?: RunGateway;
  meter?: RunMeter;
  seededPulls: GhPullRequest[];
  sandbox?: Sandbox;
}

export function counters(d: DiffCounts): DiffCounters {
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
export interface ReadyRun extends PreparedRun {
  readonly env: Workspace;
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
export interface RunState {
  status: RunStatus;
  error?: string;
  phase: string;
  failedPhase?: string;
  stoppedAtHandOver: boolean;
  finalDiff: DiffCounters;
  /** The last planned turn's stop takes the patch too, reused as the final diff when nothing ran since. */
  lastDiff?: DiffMeasure;
  /** The patch the stop being collected measured, written beside it as stops/stop-NN.patch. */
  stopPatch?: string;
  readonly stops: StopRecord[];
  readonly stopFiles: string[];
  readonly checks: CheckResult[];
  /** The eval's check files the host placed, and those whose path the agent had changed. */
  checkFiles?: { readonly placed: readonly string[]; readonly replaced: readonly string[] };
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
  /** The agent's first turn began: from then on the agent had control, and what fails is counted. */
  agentBegan?: boolean;
  /** Who had control when the run failed (run.json's `failure`). */
  failure?: RunFailure;
  /** Services found dead while the run played (the run then failed in phase `service`). */
  serviceFailures: readonly ServiceFailure[];
  /** The phases passed through so far and their durations, for run.json (see enterPhase). */
  readonly phases: PhaseTiming[];
  /** When the current phase began (performance.now()); undefined once the clock is stopped. */
  phaseStartedAt?: number;
}

/** Enters phase `name`: the one before ends now, its duration kept for run.json. */
export function enterPhase(state: RunState, name: string): void {
  stopPhaseClock(state);
  state.phase = name;
  state.phaseStartedAt = performance.now();
}

/** Ends the current phase's timing: what `state.phases` holds is then final. */
export function stopPhaseClock(state: RunState): void {
  if (state.phaseStartedAt === undefined) return;
  const ms = Math.max(0, Math.round(performance.now() - state.phaseStartedAt));
  state.phases.push({ name: state.phase, ms });
  state.phaseStartedAt = undefined;
}
