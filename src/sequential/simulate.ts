/**
 * Campaigns simulated under the design: each round plays one run a condition per eval, each
 * run a success with its condition's rate, then the look decides. Seeded, so a figure is
 * the same on every machine. The benchmark (scripts/bench/sequential.ts) and the tests read
 * the false-positive rate and the runs played from here.
 */
import type { LookBounds } from './bounds.js';
import {
  boundsOf,
  decisionAt,
  plannedLooks,
  type Decision,
  type SequentialDesign,
} from './design.js';
import { normalUpperQuantile } from './normal.js';
import { runsOf, stratifiedZ, type Counts } from './statistic.js';

import { seededUniform } from '../seeded/index.js';

/** One eval's true rates: the condition's and the baseline's. */
export interface TrueRates {
  readonly condition: number;
  readonly baseline: number;
}

export interface Simulated {
  readonly campaigns: number;
  /** Campaigns that stopped significant (in either direction). */
  readonly significant: number;
  readonly futile: number;
  /** Campaigns that reached the maximum undecided. */
  readonly cap: number;
  /** Mean runs a condition played. */
  readonly meanRuns: number;
}

/** Plays `campaigns` campaigns of the design in rounds of `round` runs per (eval, condition). */
export function simulateCampaigns(
  design: SequentialDesign,
  evals: readonly TrueRates[],
  options: { readonly campaigns: number; readonly round: number; readonly seed: number },
): Simulated {
  const perEval = design.maxRuns / evals.length;
  if (!Number.isInteger(perEval))
    throw new RangeError(`${design.maxRuns} runs do not split over ${evals.length} evals`);
  const looks = plannedLooks({ ...design, maxRuns: perEval }, options.round);
  const bounds: LookBounds[] = boundsOf(
    design,
    looks.map((n) => n * evals.length),
  );
  const random = seededUniform(options.seed);
  const counts: Record<Exclude<Decision, 'go_on'>, number> = { significant: 0, futile: 0, cap: 0 };
  let runs = 0;
  for (let c = 0; c < options.campaigns; c++) {
    const strata: Counts[] = evals.map(() => ({ x1: 0, n1: 0, x2: 0, n2: 0 }));
    let played = 0;
    for (const [k, upTo] of looks.entries()) {
      for (const [e, rates] of evals.entries()) {
        const s = strata[e]!;
        let { x1, x2 } = s;
        for (let r = played; r < upTo; r++) {
          if (random() < rates.condition) x1++;
          if (random() < rates.baseline) x2++;
        }
        strata[e] = { x1, n1: upTo, x2, n2: upTo };
      }
      played = upTo;
      const decision = decisionAt(bounds[k]!, stratifiedZ(strata));
      if (decision !== 'go_on') {
        counts[decision]++;
        runs += runsOf(strata);
        break;
      }
    }
  }
  return { campaigns: options.campaigns, ...counts, meanRuns: runs / options.campaigns };
}

function binomialPmf(n: number, p: number): number[] {
  const out: number[] = [];
  let logC = 0;
  for (let k = 0; k <= n; k++) {
    if (k > 0) logC += Math.log((n - k + 1) / k);
    const value =
      p === 0
        ? k === 0
          ? 1
          : 0
        : p === 1
          ? k === n
            ? 1
            : 0
          : Math.exp(logC + k * Math.log(p) + (n - k) * Math.log(1 - p));
    out.push(value);
  }
  return out;
}

/**
 * The exact power of the fixed design: n runs a condition, one test at the end with the same
 * statistic at two-sided alpha, summed over every outcome of the two binomials.
 */
export function fixedPower(n: number, rates: TrueRates, alpha: number): number {
  const z = normalUpperQuantile(alpha / 2);
  const a = binomialPmf(n, rates.condition);
  const b = binomialPmf(n, rates.baseline);
  let power = 0;
  for (let x1 = 0; x1 <= n; x1++) {
    for (let x2 = 0; x2 <= n; x2++) {
      if (Math.abs(stratifiedZ([{ x1, n1: n, x2, n2: n }])) >= z) power += a[x1]! * b[x2]!;
    }
  }
  return power;
}

/** The fewest runs a condition of the fixed design reaching `power`, or null past `max`. */
export function fixedRunsFor(
  power: number,
  rates: TrueRates,
  alpha: number,
  max = 400,
): number | null {
  for (let n = 2; n <= max; n++) if (fixedPower(n, rates, alpha) >= power) return n;
  return null;
}
