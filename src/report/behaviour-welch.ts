/**
 * A count's difference between two conditions: Welch's 95% interval and its two-sided p
 * (Student's t at the Welch–Satterthwaite degrees of freedom). No spread on either side and
 * equal means: no difference to test; no spread and unequal means: p 0 would claim too much,
 * so p is null there (the interval is the difference itself).
 */
import type { NumberStats } from './stats.js';
import { studentTCdf, welchDifference } from './welch.js';

export function welchFigures(
  base: NumberStats,
  other: NumberStats,
): [number | null, [number, number] | null, number | null] {
  const w = welchDifference(base, other);
  if (w.difference === null || w.ci95 === null || w.df === null)
    return [w.difference, w.ci95, null];
  const se = Math.sqrt(
    (base.stddev! * base.stddev!) / base.n + (other.stddev! * other.stddev!) / other.n,
  );
  const t = Math.abs(w.difference) / se;
  return [w.difference, w.ci95, Math.min(1, 2 * (1 - studentTCdf(t, w.df)))];
}
