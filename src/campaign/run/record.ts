/**
 * The `record` phase of a run: the final diff, the host's gh record and
 * run.json, written last.
 */
import { readFile, writeFile } from 'node:fs/promises';
import {
  type EngineRecord,
  type GhCall,
  type RunRecord,
  type RunServiceRecord,
  type RunTreatment,
} from '../../artifacts/index.js';
import { digestStops, writeCalls, writeRun } from '../../campaign-folder/index.js';
import { measureDiff } from '../../workspace/index.js';
import { measureRun, patchLines, runMessageChecks } from '../../measure/index.js';
import type { Sandbox } from '../../sandbox/index.js';
import { provenanceOf } from '../../source/index.js';
import { runTreatment, skillUses } from '../../treatment/index.js';
import { agentFor, agentTurns, runAgentRecord } from '../agent.js';
import { serviceRecords } from '../services.js';
import { checkRecord, ghRecordOf, syncTrees } from './collect.js';
import {
  type CampaignContext,
  type PreparedRun,
  type ReadyRun,
  type RunOutcome,
  type RunState,
  counters,
  enterPhase,
  stopPhaseClock,
} from './context.js';
import { failureOfState } from './failure.js';
import { releaseWorkspace } from './release.js';

/** The `record` phase's measure: the final diff and its patch, from what the sandbox left. */
export async function measureFinalDiff(
  ctx: CampaignContext,
  run: ReadyRun,
  state: RunState,
): Promise<void> {
  enterPhase(state, 'record');
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
 * (what a signal cut is never written), and hands the workspace's release
 * to `ctx.removals`.
 */
export async function recordRun(
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
  await writeCalls(layout.dir, allCalls);
  const stopsSha256 = await digestStops(layout.dir, state.stopFiles);
  const reference = prepared.planned.eval.reference;
  // The known-good answer's size, read now: the set's file, never the agent's.
  const referenceLines = reference ? patchLines(await readFile(reference, 'utf8')) : undefined;
  const record = runRecordOf(ctx, prepared, state, { allCalls, stopsSha256, referenceLines });
  // What a signal cut is unfinished, whatever it measured: resume replays it.
  if (ctx.cut?.()) return { status: 'failed', record };
  await writeRun(layout.dir, record);
  // Off the critical path too: nothing reads the workspace any more.
  const keep = ctx.keepWorkspaces || state.status === 'failed';
  ctx.removals.push(releaseWorkspace(prepared, keep).catch(() => undefined));
  return { status: state.status, record };
}

/** run.json's `engine`: the record of the engine its sandbox ran on, when it started. */
/** run.json's `services`: what started beside the sandbox, and what died. */
function servicesOf(
  ctx: CampaignContext,
  prepared: PreparedRun,
  state: RunState,
): { services?: RunServiceRecord[] } {
  const services = ctx.services?.get(prepared.planned.eval.id) ?? [];
  if (services.length === 0) return {};
  return { services: serviceRecords(services, prepared.sandbox, state.serviceFailures) };
}

function engineOf(ctx: CampaignContext, sandbox: Sandbox | undefined): { engine?: EngineRecord } {
  const engine = sandbox === undefined ? undefined : ctx.engines?.get(sandbox.engine);
  return engine === undefined ? {} : { engine };
}

/** run.json's content: what the phases left in `state`, the host's calls, the stops' digest. */
function runRecordOf(
  ctx: CampaignContext,
  prepared: PreparedRun,
  state: RunState,
  read: {
    readonly allCalls: readonly GhCall[];
    readonly stopsSha256: RunRecord['stops_sha256'];
    readonly referenceLines: number | undefined;
  },
): RunRecord {
  const { allCalls } = read;
  const { planned } = prepared;
  const e = planned.eval;
  const { status, error, stops, checks, tampered, stoppedAtHandOver } = state;
  const treatment = treatmentOf(ctx, prepared, state);
  const finishedAt = new Date();
  stopPhaseClock(state);
  const durationMs = finishedAt.getTime() - state.startedAt.getTime();
  const codebase = ctx.codebases.get(e.id);
  const agent = agentFor(ctx.agents, planned);
  const failure = failureOfState(state);
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
    ...(failure ? { failure } : {}),
    ...(tampered.size > 0 ? { tampered: [...tampered] } : {}),
    started_at: state.startedAt.toISOString(),
    finished_at: finishedAt.toISOString(),
    duration_ms: durationMs,
    phases: state.phases,
    turns_planned: 1 + e.turns.length,
    turns_completed: stops.length,
    stopped_at_hand_over: stoppedAtHandOver,
    stops: state.stopFiles,
    stops_sha256: read.stopsSha256,
    ...(codebase ? { codebase: provenanceOf(codebase.resolved) } : {}),
    image: ctx.images?.get(e.id) ?? { tag: ctx.image.tag, id: ctx.image.id },
    ...engineOf(ctx, prepared.sandbox),
    ...servicesOf(ctx, prepared, state),
    diff: state.finalDiff,
    checks,
    ...(state.checkFiles ? { check_files: state.checkFiles } : {}),
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
      skillUsed: treatment?.used ?? null,
      checksDeclared: e.checks.length,
      ...(failure ? { failure: failure.class } : {}),
      ...(read.referenceLines === undefined ? {} : { referenceLines: read.referenceLines }),
    }),
    ...(agent
      ? {
          agent: runAgentRecord(
            agent.runIdentity((ctx.images?.get(e.id) ?? ctx.image).tag),
            agentTurns(stops),
          ),
        }
      : {}),
    ...(treatment ? { treatment } : {}),
    ...fingerprintOf(ctx, planned.key),
  };
}

/** run.json's `fingerprint`: the run's inputs as the campaign hashed them before it played. */
function fingerprintOf(ctx: CampaignContext, key: string): Pick<RunRecord, 'fingerprint'> {
  const fingerprint = ctx.fingerprints?.get(key);
  return fingerprint ? { fingerprint } : {};
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
  const agent = agentFor(ctx.agents, prepared.planned);
  if (!agent || !gateway || prepared.error !== undefined) return undefined;
  const staged = ctx.treatments?.get(prepared.planned.condition.name) ?? [];
  const seen = {
    needles: gateway.needlesSeen(),
    unsearched: gateway.unsearched(),
    used: skillUses(staged, gateway.calls(), agent.adapter.skills),
  };
  return runTreatment(staged, seen, state.listedSkills);
}
