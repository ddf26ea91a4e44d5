/**
 * Error spending functions (Lan and DeMets 1983): how much of a total error a design may
 * have spent by information fraction t (0 < t <= 1). The O'Brien-Fleming type spends almost
 * nothing early, so an early stop needs an overwhelming difference, and keeps nearly the
 * whole error for the last look.
 */
import { normalSurvival, normalUpperQuantile } from './normal.js';

/** Error spent by information fraction t, of a total `total`. */
export type Spending = (t: number, total: number) => number;

/** O'Brien-Fleming type: 2 - 2Φ(z_{1-total/2} / √t). */
export const obrienFlemingSpending: Spending = (t, total) => {
  if (t <= 0) return 0;
  if (t >= 1) return total;
  return 2 * normalSurvival(normalUpperQuantile(total / 2) / Math.sqrt(t));
};
