/**
 * How the verdict lines put their figures in words: rates in whole percent, differences in
 * points, p so that it reads truly, and the clauses of a line tested within evals (how, the
 * pooled difference when the evals' mix turns it, each eval's own line).
 */
import type { DeepReadonly } from '../artifacts/index.js';
import type * as Benchmark from '../artifacts/schemas/benchmark.js';
import type { StratifiedTest } from './cmh.js';
import { points } from './format.js';

/** The significance level every verdict and warning assume. */
export const VERDICT_ALPHA = 0.05;

/** "100%", "33%": rates in whole percent. */
export function pct(rate: number): string {
  return `${Math.round(rate * 100)}%`;
}

/** "+100 pts", "−12 pts", "−0.4 pts" (never "−0"). */
export function pts(diff: number): string {
  return diff === 0 ? '±0 pts' : `${points(diff, 0, true)} pts`;
}

/** " [39, 100]": an interval in whole points, or nothing. */
export function intervalWords(ci: readonly [number, number] | null): string {
  return ci ? ` [${points(ci[0], 0)}, ${points(ci[1], 0)}]` : '';
}

/**
 * "p 0.0095", "p 0.050", "p < 0.001": two significant digits (0.00953 reads "p 0.0095", not
 * "p 0.010"), more when rounding would carry p across 0.05, whose side `below` (decided
 * exactly; default: the double's) says; "p < 0.05" when no printed digits can tell.
 */
export function formatVerdictP(p: number | null, below?: boolean): string {
  if (p === null) return 'p n/a';
  if (p < 0.001) return 'p < 0.001';
  const under = below ?? p < VERDICT_ALPHA;
  for (let digits = 2; digits <= 6; digits++) {
    const text = p.toPrecision(digits);
    if (Number(text) < VERDICT_ALPHA === under) return `p ${text}`;
  }
  return under ? 'p < 0.05' : `p ${p.toPrecision(2)}`;
}

/** "5 runs per condition", or "5 and 6 runs" when the sides differ. */
export function runsWords(n1: number, n2: number): string {
  return n1 === n2 ? `${n1} runs per condition` : `${n1} and ${n2} runs`;
}

type Stratified = DeepReadonly<Benchmark.StratifiedDifference>;
type PerEval = Omit<Stratified['per_eval'][number], 'text'>;

/**
 * One eval's own line: "easy: 90% vs 100% of runs (9/10 vs 2/2), −10 pts [−53, 41], p 1.0".
 */
export function perEvalText(e: PerEval): string {
  const rates = `${pct(e.condition_successes / e.condition_n)} vs ${pct(e.baseline_successes / e.baseline_n)}`;
  const counts = `${e.condition_successes}/${e.condition_n} vs ${e.baseline_successes}/${e.baseline_n}`;
  return `${e.eval}: ${rates} of runs (${counts}), ${pts(e.difference)}${intervalWords(e.ci95)}, ${formatVerdictP(e.p_value)}`;
}

/**
 * What the pooled runs say when it is not what the evals say: the other sign (Simpson's
 * paradox), or a difference where the evals show none, or none where they show one. Empty
 * when both go the same way.
 */
export function pooledClause(s: Stratified, within: number): string {
  const pooled = s.pooled.difference;
  if (Math.sign(pooled) === Math.sign(within)) return '';
  const why = "the two conditions' runs are spread differently over the evals";
  return s.simpson
    ? `; Simpson's paradox: pooled over the evals it reads ${pts(pooled)}, the other sign (${why})`
    : `; pooled over the evals it reads ${pts(pooled)} (${why})`;
}

/** How a line was tested within evals, and the evals that could not take part. */
export function methodClause(s: Stratified, test: StratifiedTest): string {
  const p = test === 'cmh_exact' ? 'exact CMH p' : "CMH's chi-square p, continuity-corrected";
  const left =
    s.left_out.length > 0
      ? ` (left out, with runs of one condition only: ${s.left_out.join(', ')})`
      : '';
  return `; stratified by ${s.evals} evals: Mantel-Haenszel difference, ${p}${left}`;
}
