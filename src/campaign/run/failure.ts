/**
 * Who had control when a run failed, as the host saw it: the harness before the agent's first
 * turn began (its set-up, an image, an engine, a service that never became ready) and for its
 * own errors; the model API when the gateway saw the upstream fail the turn's last call; the
 * agent for the rest of what happened while it had control, a service that died included.
 */
import type { RelayedCall } from '../../flight/index.js';
import type { RunFailure } from '../../measure/index.js';
import type { ServiceDiedError } from '../services.js';
import type { RunState } from './context.js';

/** Why the upstream failed the turn: its last call forwarded ended in its error (undefined: it did not). */
export function modelApiFault(
  calls: readonly Pick<RelayedCall, 'outcome' | 'status' | 'reason'>[],
): string | undefined {
  const last = calls.filter((c) => c.outcome !== 'refused').at(-1);
  if (!last) return undefined;
  // A 4xx other than a throttling is an answer to what the agent sent, not the API failing.
  const apiError =
    last.outcome === 'error' && (last.status >= 500 || last.status === 429 || last.status === 0);
  if (!apiError && last.outcome !== 'cut' && last.outcome !== 'failed') return undefined;
  const why = last.reason ? `: ${last.reason}` : '';
  return `the model API's last call ended ${last.outcome} (HTTP ${last.status}${why})`;
}

/**
 * The failure of a turn whose agent failed (`why`, from its exit or its stream): the model
 * API's when the gateway saw it fail the turn's last call; the harness's when the agent's
 * program could not start on the first turn (its image lacks it: the agent never had control);
 * the agent's otherwise.
 */
export function agentTurnFailure(
  why: string,
  turn: { readonly n: number; readonly cannotStart: boolean },
  calls: readonly Pick<RelayedCall, 'outcome' | 'status' | 'reason'>[],
): RunFailure {
  const api = modelApiFault(calls);
  if (api) return { class: 'model_api', reason: `${api}; ${why}` };
  if (turn.n === 1 && turn.cannotStart) return { class: 'harness', reason: why };
  return { class: 'agent', reason: why };
}

/** A service's death: the agent's once its first turn began (it could reach the service), else the harness's. */
export function serviceFailure(
  state: Pick<RunState, 'agentBegan'>,
  died: ServiceDiedError,
): RunFailure {
  return state.agentBegan
    ? { class: 'agent', reason: `${died.message}, while the agent had control` }
    : { class: 'harness', reason: died.message };
}

/** The failure run.json records for the run's end: the one a phase classed, or its status's. */
export function failureOfState(
  state: Pick<RunState, 'status' | 'failure' | 'error' | 'phase'>,
): RunFailure | undefined {
  const reason = state.error ?? state.status;
  if (state.status === 'timed_out') {
    return state.failure ?? { class: 'timeout', reason: `timed out in ${state.phase}` };
  }
  if (state.status === 'broken') return state.failure ?? { class: 'agent', reason };
  if (state.status === 'failed') return state.failure ?? { class: 'harness', reason };
  return undefined;
}
