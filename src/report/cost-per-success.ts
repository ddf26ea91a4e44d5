/**
 * What a success costs: each condition's agent cost over its runs, divided by its runs that
 * passed their checks. A cheaper condition that succeeds less can cost more per success; this
 * says so beside the cost a run.
 */
import type { BenchmarkFile } from './benchmark-file.js';

type Condition = BenchmarkFile['conditions'][number];

/** USD per run that passed its checks, or null when nothing was priced or nothing passed. */
export function costPerSuccess(c: Condition): number | null {
  const cost = c.agent.cost_usd;
  const passed = c.measures.checks_passed;
  if (cost.mean === null || cost.n === 0 || passed.n === 0 || passed.successes === 0) return null;
  // A run's mean cost over the share of runs that passed: the total over the successes when
  // every run was priced, and the same estimate when some were not.
  return cost.mean / (passed.successes / passed.n);
}

/** The label of the row, and its cells; null when no condition has checks and a cost. */
export function costPerSuccessRow(b: BenchmarkFile): { label: string; cells: string[] } | null {
  const values = b.conditions.map(costPerSuccess);
  if (values.every((v) => v === null)) return null;
  return {
    label: 'cost per run passing its checks (USD)',
    cells: values.map((v) => (v === null ? 'n/a' : v.toFixed(4))),
  };
}
