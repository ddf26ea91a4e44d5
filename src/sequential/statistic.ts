/**
 * The statistic a sequential look tests: the condition's successes against the baseline's
 * within each eval, summed (Cochran, Mantel and Haenszel's score), as a signed Z. With one
 * eval it is the two-proportion test with the hypergeometric variance, corrected for
 * continuity. Under no difference
 * it is about N(0, 1); its sign is the condition's direction.
 */

/** One eval's runs: x1 successes of n1 of the condition, x2 of n2 of the baseline. */
export interface Counts {
  readonly x1: number;
  readonly n1: number;
  readonly x2: number;
  readonly n2: number;
}

/** The signed Z of the condition against the baseline within evals; 0 when nothing varies. */
export function stratifiedZ(strata: readonly Counts[]): number {
  let score = 0;
  let variance = 0;
  for (const s of strata) {
    const n = s.n1 + s.n2;
    if (s.n1 === 0 || s.n2 === 0 || n < 2) continue;
    const successes = s.x1 + s.x2;
    score += s.x1 - (s.n1 * successes) / n;
    variance += (s.n1 * s.n2 * successes * (n - successes)) / (n * n * (n - 1));
  }
  // Every run alike (all passed, or none did): nothing tells the conditions apart yet.
  if (variance === 0) return 0;
  // Mantel and Haenszel's continuity correction: the score moves in whole successes, and
  // without it the test rejects more often than alpha (5.7% at 40 runs a side and 50%).
  return (Math.sign(score) * Math.max(0, Math.abs(score) - 0.5)) / Math.sqrt(variance);
}

/** Runs per condition a look counts: the fewer side's, summed over the evals. */
export function runsOf(strata: readonly Counts[]): number {
  const [a, b] = strata.reduce(([a, b], s) => [a + s.n1, b + s.n2], [0, 0]);
  return Math.min(a, b);
}
