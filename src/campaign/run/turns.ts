/**
 * The `turn N` phases of a run: one exec of the agent per message, each ended
 * by its collected stop.
 */
import { agentFor } from '../agent.js';
import { turnPlayer, whyAgentFailed } from '../turns.js';
import type { RunLimitName } from '../../artifacts/index.js';
import { ServiceDiedError } from '../services.js';
import type { RunSpending } from '../budget.js';
import { collectTurnStop } from './collect.js';
import { agentTurnFailure } from './failure.js';
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
    agent: agentFor(ctx.agents, run.planned),
    planned: run.planned,
    layout: run.layout,
    sandbox: run.sandbox,
    containerWorkTree: run.containerWorkTree,
    home: run.home,
  });
  // Not `?? NO_BUDGET`: a null from the budget is its refusal, not the absence of a budget.
  const waitedFrom = Date.now();
  const spending = ctx.budget ? await ctx.budget.admitRun(messages.length) : NO_BUDGET;
  // A run that waited for the campaign's first turn's cost is not timed out for that wait.
  state.deadline += Date.now() - waitedFrom;
  if (spending === null) return cutByLimit(state, 'campaign_cost');
  try {
    await playEach(ctx, run, state, play, messages, spending);
  } finally {
    spending.end();
  }
}

/** The turns in order, each admitted by the run's share of the budget. */
async function playEach(
  ctx: CampaignContext,
  run: ReadyRun,
  state: RunState,
  play: ReturnType<typeof turnPlayer>,
  messages: readonly TurnMessage[],
  spending: RunSpending,
): Promise<void> {
  const e = run.planned.eval;
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
    const turnSpending = spending.startTurn();
    if (turnSpending === null) return cutByLimit(state, 'campaign_cost');
    state.agentBegan = true;
    const queued = queuedClock(run);
    const cost0 = run.meter?.costUsd ?? 0;
    // A turn that throws is over too: the budget must not count it in flight for ever (runs
    // waiting for a turn's cost would wait for it).
    const played = await play({ n, ...message, timeoutMs, extraMs: queued.ms }).catch(
      (error: unknown) => {
        turnSpending.end((run.meter?.costUsd ?? 0) - cost0);
        throw error;
      },
    );
    // The agent may exit before its last call is logged: the turn's cost is read once the
    // gateway has settled (a cut turn's calls may hang: what is logged is what it cost).
    if (!played.exec.timedOut) await run.gateway?.gateway.settled();
    turnSpending.end((run.meter?.costUsd ?? 0) - cost0);
    // The time queued behind the upstream's limits is the run's too, not charged to it.
    state.deadline += queued.ms();
    state.queuedMs = queued.ms();
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
    const afterSeqBefore = afterSeq;
    afterSeq = stop.calls.reduce((m, c) => Math.max(m, c.seq), afterSeq);
    // A limit reached (the gateway refused the calls past it) ends the run: its outcome.
    if (run.meter?.reached) return cutByLimit(state, run.meter.reached);
    // A service that died explains the turn before the agent's own failure would.
    await watchServices(run, `turn ${n}`);
    // An agent that cannot start, exits non-zero, reports an error or never finishes its
    // stream played no real turn: the run failed in the agent (its stop is kept, no more turns).
    const agentFailure = whyAgentFailed({ exec: played.exec, agent: stop.agent });
    if (agentFailure) {
      state.status = 'failed';
      state.error = `turn ${n}: ${agentFailure}`;
      state.failedPhase = 'agent';
      const cannotStart = played.exec.exitCode === 126 || played.exec.exitCode === 127;
      const turnCalls = run.gateway?.gateway.calls().filter((c) => c.seq > afterSeqBefore) ?? [];
      state.failure = agentTurnFailure(state.error, { n, cannotStart }, turnCalls);
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

/** A turn's message and its phase, the first from the eval's prompt. */
type TurnMessage = ReadyRun['planned']['eval']['turns'][number];

/** A run the campaign has no budget for (no `--max-cost`: every turn may start). */
const NO_BUDGET: RunSpending = {
  startTurn: () => ({ end: () => undefined }),
  end: () => undefined,
};

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
