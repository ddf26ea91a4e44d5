/**
 * The score of a group-sequential test as a Brownian motion with drift: at information
 * fraction t the score S(t) = Z(t)·√t is N(θt, t), with independent increments. A walk holds
 * the density of S at the last look over the region where the test went on, on a grid
 * integrated by Simpson's rule (Armitage, McPherson and Rowe 1969; Jennison and Turnbull 2000,
 * ch. 19). What it answers is exact up to the grid's error, about 1e-6 here.
 */
import { normalDensity, normalSurvival } from './normal.js';

/** The density of the score over the region the test went on through, at fraction t. */
export interface Walk {
  readonly t: number;
  readonly points: Float64Array;
  /** Simpson's weight of each point times the density there. */
  readonly mass: Float64Array;
}

/** The start: all mass at a score of 0, before any look. */
export function startWalk(): Walk {
  return { t: 0, points: Float64Array.of(0), mass: Float64Array.of(1) };
}

/** P(S(t) > x) summed over the walk, under drift theta. */
export function massAbove(walk: Walk, t: number, theta: number, x: number): number {
  const dt = t - walk.t;
  const sd = Math.sqrt(dt);
  let total = 0;
  for (let i = 0; i < walk.points.length; i++) {
    total += walk.mass[i]! * normalSurvival((x - walk.points[i]! - theta * dt) / sd);
  }
  return total;
}

/** What is left of the walk's mass in total. */
export function massOf(walk: Walk): number {
  let total = 0;
  for (const m of walk.mass) total += m;
  return total;
}

/** Grid points per unit of the increment's sd: the density is smooth on that scale. */
const PER_SD = 16;
const MAX_POINTS = 4001;

/**
 * The walk one look on, at fraction t under drift theta, kept only where the test goes on:
 * `region` is a list of [low, high] intervals of the score (empty: the test ended).
 */
export function advance(
  walk: Walk,
  t: number,
  theta: number,
  region: ReadonlyArray<readonly [number, number]>,
): Walk {
  const dt = t - walk.t;
  const sd = Math.sqrt(dt);
  const points: number[] = [];
  const weights: number[] = [];
  for (const [low, high] of region) {
    if (!(high > low)) continue;
    // An odd number of points, for Simpson's rule.
    let m = Math.ceil(((high - low) / sd) * PER_SD);
    m = Math.min(MAX_POINTS, Math.max(3, m % 2 === 0 ? m + 1 : m + 2));
    const h = (high - low) / (m - 1);
    for (let j = 0; j < m; j++) {
      points.push(low + j * h);
      const w = j === 0 || j === m - 1 ? 1 : j % 2 === 1 ? 4 : 2;
      weights.push((w * h) / 3);
    }
  }
  const mass = new Float64Array(points.length);
  for (let j = 0; j < points.length; j++) {
    let density = 0;
    for (let i = 0; i < walk.points.length; i++) {
      density += walk.mass[i]! * normalDensity((points[j]! - walk.points[i]! - theta * dt) / sd);
    }
    mass[j] = (weights[j]! * density) / sd;
  }
  return { t, points: Float64Array.from(points), mass };
}
