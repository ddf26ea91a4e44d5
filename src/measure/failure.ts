/**
 * Who had control when a run did not end as completed, and what follows from it. Only a
 * failure of the harness says nothing of the agent: it is left out of the measures and
 * replayed on resume. Every other class counts against the run's condition, or a condition
 * that fails more would lose its failures from the measures (attrition bias).
 */
import type { RunRecord } from '../artifacts/index.js';

export type FailureClass = NonNullable<RunRecord['failure']>['class'];

export type RunFailure = NonNullable<RunRecord['failure']>;

/** The classes in the order reports show them. */
export const FAILURE_CLASSES = [
  'harness',
  'model_api',
  'agent',
  'timeout',
] as const satisfies readonly FailureClass[];

type FailureFields = Pick<RunRecord, 'status' | 'failure' | 'error' | 'phase'>;

/**
 * The run's failure: its run.json's, or for a run written before failures were classed, what
 * its status said then (failed was the harness's, broken and timed out the agent's).
 */
export function failureOf(run: FailureFields): RunFailure | undefined {
  if (run.failure) return run.failure;
  const reason = run.error ?? run.status;
  if (run.status === 'failed') return { class: 'harness', reason };
  if (run.status === 'broken') return { class: 'agent', reason };
  if (run.status === 'timed_out') return { class: 'timeout', reason };
  return undefined;
}

/**
 * Whether the run says nothing of its agent: a failure of the harness, or a run the campaign's
 * budget kept from finishing. Such a run is left out of the measures and played again.
 */
export function leftOut(run: FailureFields & Pick<RunRecord, 'limit'>): boolean {
  return run.limit === 'campaign_cost' || failureOf(run)?.class === 'harness';
}

/** Failed runs by class, all zero. */
export function noFailures(): Record<FailureClass, number> {
  return { harness: 0, model_api: 0, agent: 0, timeout: 0 };
}
