/**
 * The gate's rates tested within evals: when both campaigns ran several of the same evals
 * with a measure, B is set against A eval by eval and the evals combined (Mantel-Haenszel's
 * difference, the exact conditional test or CMH's chi-square), as the report's verdict does:
 * runs pooled over evals can turn a difference over when the two campaigns spread their runs
 * differently over them (Simpson's paradox).
 */
import { withinEvals, type EvalStratum, type WithinEvals } from '../report/stratify.js';
import type { CompareFile, RateComparison } from './types.js';

/** The significance level the gate decides at. */
export const GATE_ALPHA = 0.05;

/**
 * B against A on `measure` within the evals of `condition` both campaigns ran, B as the
 * condition and A as the baseline; null with fewer than two evals holding runs of it on both
 * sides (the condition overall is then tested as it is, over its runs).
 */
export function rateWithinEvals(
  comparison: CompareFile,
  condition: string,
  pooled: RateComparison,
): WithinEvals | null {
  const strata: EvalStratum[] = [];
  for (const g of comparison.groups) {
    if (g.eval === null || g.condition !== condition) continue;
    const m = g.measures.find((x) => x.measure === pooled.measure);
    if (m?.kind !== 'rate') continue;
    strata.push({ eval: g.eval, x1: m.b.successes, n1: m.b.n, x2: m.a.successes, n2: m.a.n });
  }
  return withinEvals(
    strata,
    {
      kind: 'rate',
      baseline: pooled.a.rate,
      other: pooled.b.rate,
      difference: pooled.difference,
      p_value: pooled.p_value,
      ci95: pooled.ci95,
    },
    GATE_ALPHA,
  );
}

/** "exact CMH p", or the chi-square's name: the test a gate line within evals used. */
export function withinTestName(w: WithinEvals): string {
  return w.test === 'cmh_exact' ? 'exact CMH p' : "CMH's chi-square p, continuity-corrected,";
}
