/**
 * The boundaries of a two-sided group-sequential test at its looks (information fractions
 * t₁ < … < t_K <= 1), on the scale of Z: stop significant when |Z_k| >= efficacy_k, stop
 * futile when |Z_k| < futility_k. The efficacy bounds spend the type I error under no
 * difference ignoring the futility bounds, so the futility bounds are non-binding: going on
 * past one never raises the false-positive rate above alpha. The futility bounds spend the
 * type II error under the drift of the smallest effect that matters.
 */
import { obrienFlemingSpending, type Spending } from './spending.js';
import { advance, massAbove, massOf, startWalk, type Walk } from './walk.js';

/** The bounds of one look, on the scale of Z. */
export interface LookBounds {
  readonly t: number;
  readonly efficacy: number;
  /** 0: no futility stop at this look; equal to efficacy: every path stops here. */
  readonly futility: number;
}

/** A bound past this is never crossed in practice (P(|Z| > 8) is 1e-15). */
export const MAX_BOUND = 8;

/** P(|S(t)| >= z√t) of the walk's mass, under drift theta. */
function outside(walk: Walk, t: number, theta: number, z: number): number {
  const x = z * Math.sqrt(t);
  return massAbove(walk, t, theta, x) + (massOf(walk) - massAbove(walk, t, theta, -x));
}

/** The z in [low, high] where `f` (monotone) meets target, by bisection. */
function solve(f: (z: number) => number, target: number, low: number, high: number): number {
  const rising = f(high) > f(low);
  let [lo, hi] = [low, high];
  for (let i = 0; i < 48; i++) {
    const mid = (lo + hi) / 2;
    if (f(mid) > target === rising) hi = mid;
    else lo = mid;
  }
  return (lo + hi) / 2;
}

function checkFractions(ts: readonly number[]): void {
  ts.forEach((t, k) => {
    if (!(t > (ts[k - 1] ?? 0) && t <= 1))
      throw new RangeError(`information fractions must rise within (0, 1]: ${ts.join(', ')}`);
  });
}

/** Efficacy bounds that spend `alpha` (two-sided) by `spending` over the looks ts. */
export function efficacyBounds(
  ts: readonly number[],
  alpha: number,
  spending: Spending = obrienFlemingSpending,
): number[] {
  checkFractions(ts);
  let walk = startWalk();
  const bounds: number[] = [];
  let spent = 0;
  for (const t of ts) {
    const target = spending(t, alpha) - spent;
    const at = (z: number) => outside(walk, t, 0, z);
    const z = at(MAX_BOUND) >= target ? MAX_BOUND : solve(at, target, 0, MAX_BOUND);
    spent += at(z);
    bounds.push(z);
    const x = z * Math.sqrt(t);
    walk = advance(walk, t, 0, [[-x, x]]);
  }
  return bounds;
}

/** The region where the test goes on: futility < |Z| < efficacy, as score intervals. */
function goOn(t: number, efficacy: number, futility: number): Array<[number, number]> {
  const [e, f] = [efficacy * Math.sqrt(t), futility * Math.sqrt(t)];
  if (futility >= efficacy) return [];
  return futility <= 0
    ? [[-e, e]]
    : [
        [-e, -f],
        [f, e],
      ];
}

/**
 * Futility bounds that spend `beta` by `spending` under drift theta, beside the efficacy
 * bounds, from the fraction `from` on (none before: what is not spent early is spent at the
 * first look that may stop); the last look's is its efficacy bound (the test ends there).
 */
export function futilityBounds(
  ts: readonly number[],
  efficacy: readonly number[],
  theta: number,
  beta: number,
  from = 0,
  spending: Spending = obrienFlemingSpending,
): number[] {
  let walk = startWalk();
  const bounds: number[] = [];
  let spent = 0;
  ts.forEach((t, k) => {
    const e = efficacy[k]!;
    const inside = (z: number) => massOf(walk) - outside(walk, t, theta, z);
    // Only the planned maximum ends the test: the looks given may be the first few of it.
    const last = t >= 1;
    const target = spending(t, beta) - spent;
    let f: number;
    if (last) f = e;
    else if (t < from || inside(0) >= target) f = 0;
    else if (inside(e) <= target) f = e;
    else f = solve(inside, target, 0, e);
    spent += inside(f);
    bounds.push(f);
    walk = advance(walk, t, theta, goOn(t, e, f));
  });
  return bounds;
}

/** Both bounds at every look. */
export function lookBounds(
  ts: readonly number[],
  alpha: number,
  theta: number,
  beta: number,
  futilityFrom = 0,
): LookBounds[] {
  const efficacy = efficacyBounds(ts, alpha);
  const futility = futilityBounds(ts, efficacy, theta, beta, futilityFrom);
  return ts.map((t, k) => ({ t, efficacy: efficacy[k]!, futility: futility[k]! }));
}

/** How a design behaves under drift theta when its futility bounds are obeyed. */
export interface Operating {
  /** P(stopping significant). */
  readonly power: number;
  /** The expected information fraction at the stop. */
  readonly expectedT: number;
  /** P(stopping at each look). */
  readonly stops: readonly number[];
}

/** The probability of each stop and of a significant one, under drift theta. */
export function operating(bounds: readonly LookBounds[], theta: number): Operating {
  let walk = startWalk();
  let power = 0;
  let expectedT = 0;
  const stops: number[] = [];
  for (const b of bounds) {
    const before = massOf(walk);
    const significant = outside(walk, b.t, theta, b.efficacy);
    const next = advance(walk, b.t, theta, goOn(b.t, b.efficacy, b.futility));
    const stop = before - massOf(next);
    power += significant;
    expectedT += stop * b.t;
    stops.push(stop);
    walk = next;
  }
  return { power, expectedT, stops };
}

/** P(crossing the efficacy bounds at some look) under drift theta, with no futility stop. */
export function crossingProbability(
  ts: readonly number[],
  efficacy: readonly number[],
  theta: number,
): number {
  return operating(
    ts.map((t, k) => ({ t, efficacy: efficacy[k]!, futility: 0 })),
    theta,
  ).power;
}

/**
 * O'Brien and Fleming's (1979) bounds c/√t_k, c chosen so that the bounds spend `alpha`
 * (two-sided) over the looks: the design the spending function is named after.
 */
export function obrienFlemingBounds(ts: readonly number[], alpha: number): number[] {
  checkFractions(ts);
  const bounds = (c: number) => ts.map((t) => c / Math.sqrt(t));
  const c = solve((c) => crossingProbability(ts, bounds(c), 0), alpha, 1, MAX_BOUND);
  return bounds(c);
}
