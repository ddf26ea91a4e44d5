/**
 * The interaction of a condition with two agents, on one rate: how much larger its effect is
 * for one agent than for the other, the difference of the two differences
 * (p_A,cond − p_A,base) − (p_B,cond − p_B,base), with a 95% interval.
 *
 * The interval is Zou and Donner's MOVER, the same recovery of variance that makes Newcombe's
 * interval of one difference from two Wilson intervals, applied once more to the two Newcombe
 * intervals: each agent's runs are independent of the other's. Unlike Wald's, it stays
 * informative when a rate is 0% or 100%, which offline campaigns of few runs often show.
 *
 * @example
 * interaction({ successes: 4, n: 4 }, { successes: 0, n: 4 }, { successes: 2, n: 4 }, { successes: 2, n: 4 });
 * // { difference: 1, ci95: [0.1486, 1.4949] }: +100 pts for A against ±0 pts for B
 */
import { newcombeDifference } from './stats.js';

/** Successes over runs. */
export interface Counts {
  readonly successes: number;
  readonly n: number;
}

/** One agent's effect: its condition's rate less its baseline's, with Newcombe's interval. */
export interface Effect {
  readonly difference: number;
  readonly ci95: readonly [number, number];
}

/** The effect of `cond` over `base`, or null when a side has no runs. */
export function effectOf(cond: Counts, base: Counts): Effect | null {
  const ci95 = newcombeDifference(cond.successes, cond.n, base.successes, base.n);
  if (ci95 === null) return null;
  return { difference: cond.successes / cond.n - base.successes / base.n, ci95 };
}

/** A's effect less B's, with MOVER's interval over their Newcombe intervals. */
export function interactionOf(a: Effect, b: Effect): Effect {
  const d = a.difference - b.difference;
  const lower = d - Math.hypot(a.difference - a.ci95[0], b.ci95[1] - b.difference);
  const upper = d + Math.hypot(a.ci95[1] - a.difference, b.difference - b.ci95[0]);
  return { difference: d, ci95: [Math.max(-2, lower), Math.min(2, upper)] };
}

/** The interaction from the four groups' counts, or null when one has no runs. */
export function interaction(
  aCond: Counts,
  aBase: Counts,
  bCond: Counts,
  bBase: Counts,
): Effect | null {
  const a = effectOf(aCond, aBase);
  const b = effectOf(bCond, bBase);
  return a && b ? interactionOf(a, b) : null;
}

/** True when an interval lies wholly on one side of 0. */
export function excludesZero(ci: readonly [number, number]): boolean {
  return ci[0] > 0 || ci[1] < 0;
}
