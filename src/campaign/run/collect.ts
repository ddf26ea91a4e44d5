/**
 * The `collect` phase of a turn: the agent's processes stopped, the trees
 * synced out, the stop read, compared with the host's record and written.
 */
import path from 'node:path';
import type { StopRecord, TurnAgentRecord } from '../../artifacts/index.js';
import { writeStop, writeStopPatch } from '../../campaign-folder/index.js';
import { collectStop, recordTampering, type StopContext } from '../../collect/index.js';
import { isAncestorIn, measureDiff } from '../../workspace/index.js';
import { capMessage, commandFinalMessage } from '../../measure/index.js';
import { witnessTurn } from '../../flight/index.js';
import { agentFor, priceCall, turnAgentRecord } from '../agent.js';
import type { PlayedRunTurn } from '../turns.js';
import {
  type CampaignContext,
  type PreparedRun,
  type ReadyRun,
  type RunState,
  counters,
} from './context.js';

/** Brings the sandbox's work tree and origin to the host folders the measures read (mounted: nothing moves). */
export async function syncTrees(run: ReadyRun): Promise<void> {
  await Promise.all([
    run.sandbox.syncOut(run.containerWorkTree, run.env.workTree),
    run.sandbox.syncOut(run.containerOrigin, run.env.originPath),
  ]);
}

/** The host's copy of the gh record: what measures read, whatever the repository's says. */
export function ghRecordOf(prepared: PreparedRun): ReturnType<StopContext['ghRecord']> {
  return {
    calls: prepared.recorder?.calls() ?? [],
    pulls: prepared.recorder?.state()?.pull_requests ?? prepared.seededPulls,
  };
}

/** Compares the repository's record with the host's, noting every difference as tampering. */
export async function checkRecord(prepared: PreparedRun, tampered: Set<string>): Promise<void> {
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
    // Counts and patch come from one git process: each stop keeps its patch (what the viewer
    // shows at that stop), and the last planned turn's is reused as the final diff.
    measureDiff: async () => {
      const diff = await measureDiff(run.seal, { maxPatchBytes: ctx.maxPatchBytes });
      state.stopPatch = diff.patch;
      if (last) state.lastDiff = diff;
      return counters(diff);
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
export async function collectTurnStop(
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
  const agent = played.claim
    ? await witnessedTurn(ctx, run, state, turn.n, played.claim)
    : undefined;
  const queued = state.queuedMs ? { queued_ms: Math.round(state.queuedMs) } : {};
  const kept: StopRecord = {
    ...stop,
    final_message: finalMessageOf(ctx, played, agent),
    ...(agent ? { agent: { ...agent, ...queued } } : {}),
  };
  if (state.stopPatch !== undefined) await writeStopPatch(run.layout.dir, turn.n, state.stopPatch);
  state.stopPatch = undefined;
  const file = await writeStop(run.layout.dir, turn.n, kept);
  state.stops.push(kept);
  state.stopFiles.push(file);
  return kept;
}

/**
 * An adapter agent's turn as the host witnessed it: the calls its gateway relayed since the
 * last stop (every process of the agent is stopped by now; what is still in flight is waited
 * for), their figures, the stream beside them, and each disagreement marked as tampering.
 */
async function witnessedTurn(
  ctx: CampaignContext,
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
  const refused = refusalTest(agentFor(ctx.agents, run.planned)?.adapter.refusals ?? []);
  const witness = witnessTurn(calls, priceCall, refused);
  const record = turnAgentRecord(n, claim.summary, claim.transcript, witness);
  for (const reason of record.claim?.disagreements ?? []) state.tampered.add(reason);
  return record;
}

/** Whether a tool result is one of the agent's refusals (its adapter's forms, at the result's start or anywhere). */
function refusalTest(forms: readonly RegExp[]): (text: string) => boolean {
  return (text) => forms.some((f) => f.test(text));
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
