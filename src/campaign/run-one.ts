import { BrokenWorkspaceError } from '../collect/index.js';
import { WorkspaceError } from '../workspace/index.js';
import { GitError } from '../git/index.js';
import { UntrustedFileError } from '../untrusted/index.js';
import {
  ProcessesNotStoppedError,
  SandboxFileError,
  type SandboxProvider,
  type SandboxReservation,
} from '../sandbox/index.js';
import type { PhaseTiming } from '../artifacts/index.js';
import type { PlannedRun } from './plan.js';
import { runChecks } from './run/checks.js';
import {
  type CampaignContext,
  type Opened,
  type PreparedRun,
  type ReadyRun,
  type RunOutcome,
  type RunState,
  ZERO_DIFF,
  placeRun,
} from './run/context.js';
import { prepareWorkspaceOf } from './run/prepare.js';
import { measureFinalDiff, recordRun } from './run/record.js';
import { reserveSandbox, startSandbox } from './run/start.js';
import { ServiceDiedError } from './services.js';
import { serviceFailure } from './run/failure.js';
import { playTurns, watchServices } from './run/turns.js';

/** What the agent did to its workspace that stops the run: its outcome, not a harness failure. */
function isBrokenByAgent(error: unknown): boolean {
  return (
    error instanceof BrokenWorkspaceError ||
    error instanceof ProcessesNotStoppedError ||
    // A tree a copying sandbox refuses to bring back (over its caps, names not UTF-8).
    error instanceof SandboxFileError ||
    error instanceof UntrustedFileError ||
    error instanceof WorkspaceError ||
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

/**
 * Prepares a run: a clean run folder, its workspace (checkout, overlay,
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
  // Each phase's duration, for run.json: these two often run ahead, while another run plays.
  const phases: PhaseTiming[] = [];
  let began = performance.now();
  const ended = () => {
    const now = performance.now();
    phases.push({ name: phase, ms: Math.max(0, Math.round(now - began)) });
    began = now;
  };
  let reservation: SandboxReservation | undefined;
  try {
    // Begun first: the run's network is made on the engine while its workspace is prepared.
    reservation = reserveSandbox(ctx, planned);
    await prepareWorkspaceOf(ctx, planned, place, opened);
    ended();
    phase = 'start';
    await startSandbox(ctx, planned, place, opened, reservation);
    ended();
    return { ...where, ...opened, phases };
  } catch (caught) {
    ended();
    // A start that never came: what was made ahead goes (a start that failed removed its own).
    await reservation?.release().catch(() => undefined);
    const error = caught instanceof Error ? caught.message : String(caught);
    return { ...where, ...opened, error, failedIn: phase, phases };
  }
}

/**
 * Plays a prepared run, phase after phase: the turns (one exec each in its
 * sandbox), each ending in a stop that is collected, the checks, the final
 * diff; then writes run.json last (its presence means the run is finished)
 * and hands the sandbox's removal to `ctx.removals`, off the critical path.
 *
 * What the agent did to its workspace that makes a stop unreadable ends the
 * run as `broken` (its outcome, counted). A failure is classed by who had
 * control (run/failure.ts): the harness's is redone on resume, the agent's (a
 * service it could reach that died included) counted. Either names its phase.
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
    phases: [...prepared.phases],
    serviceFailures: [],
  };
  try {
    const run = readyRun(prepared);
    await playTurns(ctx, run, state);
    if (state.status === 'completed') await runChecks(ctx, run, state);
    await watchServices(run, 'the checks');
    await measureFinalDiff(ctx, run, state);
  } catch (caught) {
    if (caught instanceof ServiceDiedError) {
      // Once the agent had control it could reach the service: its death counts against it.
      state.serviceFailures = caught.failures;
      state.status = 'failed';
      state.error = `service: ${caught.message}`;
      state.failedPhase = 'service';
      state.failure = serviceFailure(state, caught);
    } else {
      // A lost engine is the harness's failure whatever it interrupted.
      const broken = isBrokenByAgent(caught) && !(await engineAtFault(ctx.sandboxes, caught));
      state.status = broken ? 'broken' : 'failed';
      state.error = `${state.phase}: ${caught instanceof Error ? caught.message : String(caught)}`;
      state.failure = { class: broken ? 'agent' : 'harness', reason: state.error };
    }
  } finally {
    if (prepared.sandbox) {
      ctx.live.delete(prepared.sandbox);
      ctx.removals.push(prepared.sandbox.remove().catch(() => undefined));
    }
  }
  await blameLostEngine(ctx.sandboxes, state);
  return recordRun(ctx, prepared, state);
}

/**
 * A failure counted against the agent is the harness's after all when the engine is lost or
 * does not answer: its containers and services died with it, whatever the agent was doing.
 */
async function blameLostEngine(sandboxes: SandboxProvider, state: RunState): Promise<void> {
  if (state.status !== 'failed' || state.failure?.class === 'harness') return;
  const lost =
    sandboxes.lost?.() ||
    (await sandboxes.check().then(
      () => false,
      () => true,
    ));
  if (lost) state.failure = { class: 'harness', reason: `${state.error}; the engine was lost` };
}

function readyRun(prepared: PreparedRun): ReadyRun {
  const { env, seal, sandbox, recorder } = prepared;
  if (prepared.error !== undefined || !env || !seal || !sandbox || !recorder) {
    throw new Error(prepared.error ?? 'the run was not prepared');
  }
  return { ...prepared, env, seal, sandbox, recorder };
}

export {
  agentUserOfRuns,
  repositoryName,
  type CampaignContext,
  type PreparedRun,
  type RunOutcome,
} from './run/context.js';
export { discardPreparedRun } from './run/release.js';
