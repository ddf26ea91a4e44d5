/**
 * The `turn N` phases of a run: one exec of the agent per message, each ended
 * by its collected stop.
 */
import { turnPlayer, whyAgentFailed } from '../turns.js';
import { ServiceDiedError } from '../services.js';
import { collectTurnStop } from './collect.js';
import { enterPhase, type CampaignContext, type ReadyRun, type RunState } from './context.js';

/** The turns, each ended by its collected stop, until the last, a cut, an agent's failure or a hand-over. */
export async function playTurns(
  ctx: CampaignContext,
  run: ReadyRun,
  state: RunState,
): Promise<void> {
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
    enterPhase(state, `turn ${n}`);
    const remaining = state.deadline - Date.now();
    if (remaining <= 0) {
      state.status = 'timed_out';
      return;
    }
    state.lastDiff = undefined;
    const timeoutMs = Math.min(e.turn_timeout * 1000, remaining);
    const played = await play({ n, ...message, timeoutMs });
    if (played.exec.timedOut) {
      // The cut turn reached no stop: kill the session, record no stop for it.
      await run.sandbox.kill();
      state.status = 'timed_out';
      return;
    }
    enterPhase(state, 'collect');
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
    // A service that died explains the turn before the agent's own failure would.
    await watchServices(run, `turn ${n}`);
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

/** Throws ServiceDiedError when a service of the run is no longer running. */
export async function watchServices(run: ReadyRun, during: string): Promise<void> {
  if (!run.sandbox.services?.length) return;
  const failures = (await run.sandbox.serviceFailures?.()) ?? [];
  if (failures.length > 0) throw new ServiceDiedError(failures, during);
}
