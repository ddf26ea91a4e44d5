/**
 * The failed runs of each condition by who had control, for report.md, report.html and
 * BASELINE.md: the harness's are left out of the measures (and replayed on resume), every other
 * class counts against its condition, and the report says so beside the figures.
 */
import type * as Benchmark from '../artifacts/schemas/benchmark.js';

type Failures = Benchmark.Failures;

interface WithFailures {
  readonly condition: string;
  readonly failures?: Failures;
}

/** The row label of the per-condition tables. */
export const FAILURES_LABEL =
  'failed by: harness (left out) / model API / agent / time-out (counted)';

/** One condition's cell: its failures by class (n/a for a file written before they were classed). */
export function failuresCell(c: WithFailures): string {
  const f = c.failures;
  if (!f) return 'n/a';
  return `${f.harness} / ${f.model_api} / ${f.agent} / ${f.timeout}`;
}

/** Whether any condition has a failure of any class (else the row says nothing). */
export function anyFailure(conds: readonly WithFailures[]): boolean {
  return conds.some((c) => {
    const f = c.failures;
    return f !== undefined && f.harness + f.model_api + f.agent + f.timeout > 0;
  });
}

/** BASELINE.md's rows: each condition's failures, in words. */
export function failureRows(conds: readonly WithFailures[]): string[][] {
  if (!anyFailure(conds)) return [];
  return conds.map((c) => {
    const f = c.failures;
    if (!f) return [`failures (${c.condition})`, 'not classed (an earlier evalrig)'];
    const counted = f.model_api + f.agent + f.timeout;
    return [
      `failures (${c.condition})`,
      `${counted} counted against the condition (model API ${f.model_api}, agent ${f.agent}, time-out ${f.timeout}); ${f.harness} by the harness, left out of the measures`,
    ];
  });
}
