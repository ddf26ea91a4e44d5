/**
 * The design `evalrig run --until-decided` plays: a two-sided group-sequential test of the
 * primary measure's difference, with O'Brien-Fleming-type alpha spending (Lan and DeMets
 * 1983) over the planned maximum of runs a condition, and a non-binding futility bound that
 * spends the type II error at the smallest effect that matters. After each look: significant,
 * futile, or go on; at the maximum the test ends either way.
 */
import { lookBounds, type LookBounds } from './bounds.js';

export interface SequentialDesign {
  /** Two-sided type I error. */
  readonly alpha: number;
  /** Type II error the futility bound spends at the smallest effect. */
  readonly beta: number;
  /** The smallest difference in the rate that matters (0 to 1). */
  readonly minEffect: number;
  /** The planned maximum of runs a condition (over every eval). */
  readonly maxRuns: number;
}

/** What a look says. */
export type Decision = 'significant' | 'futile' | 'cap' | 'go_on';

/** One look: the runs a condition it counted and the statistic then. */
export interface Look {
  readonly runs: number;
  readonly z: number;
}

/** A look with its bounds and what it decided. */
export interface DecidedLook extends Look, LookBounds {
  readonly decision: Decision;
}

/**
 * Futility is looked at from half the planned runs on. Earlier, the runs are few and the
 * statistic is lumpy: Z is exactly 0 in a fifth of small campaigns (equal counts), which a
 * bound of a few hundredths, fit for a continuous Z, would take for futility every time.
 */
export const FUTILITY_FROM = 0.5;

/** The design's default errors: those of the report's verdicts (p < 0.05, 80% power). */
export const DEFAULT_ALPHA = 0.05;
export const DEFAULT_BETA = 0.2;

/**
 * The drift of Z at the smallest effect: E[Z] at the maximum of runs when the rates differ
 * by minEffect around 50%, where a difference is hardest to see (so the futility bound
 * never stops sooner than the baseline's true rate would have it).
 */
export function driftOf(design: SequentialDesign): number {
  return design.minEffect * Math.sqrt(2 * design.maxRuns);
}

/** The information fraction of a look: its runs of the planned maximum. */
export function fractionOf(design: SequentialDesign, runs: number): number {
  return Math.min(1, runs / design.maxRuns);
}

/** The bounds of the looks at these runs a condition (rising). */
export function boundsOf(design: SequentialDesign, runs: readonly number[]): LookBounds[] {
  const ts = runs.map((n) => fractionOf(design, n));
  return lookBounds(ts, design.alpha, driftOf(design), design.beta, FUTILITY_FROM);
}

/** What one look decides, given its bounds. */
export function decisionAt(bounds: LookBounds, z: number): Decision {
  if (Math.abs(z) >= bounds.efficacy) return 'significant';
  if (bounds.t >= 1) return 'cap';
  if (bounds.futility >= bounds.efficacy || Math.abs(z) < bounds.futility) return 'futile';
  return 'go_on';
}

/**
 * Every look's bounds and decision, in order; the test ends at the first that is not go_on
 * (looks after it are not taken). Looks must count rising runs.
 */
export function decide(design: SequentialDesign, looks: readonly Look[]): DecidedLook[] {
  const bounds = boundsOf(
    design,
    looks.map((l) => l.runs),
  );
  const out: DecidedLook[] = [];
  for (const [k, look] of looks.entries()) {
    const b = bounds[k]!;
    const decision = decisionAt(b, look.z);
    out.push({ ...look, ...b, decision });
    if (decision !== 'go_on') break;
  }
  return out;
}

/** The looks of a campaign played in rounds of `round` runs a condition, to the maximum. */
export function plannedLooks(design: SequentialDesign, round: number): number[] {
  const runs: number[] = [];
  for (let n = round; n < design.maxRuns; n += round) runs.push(n);
  runs.push(design.maxRuns);
  return runs;
}

/** The words of the design, as the report and the CLI say it. */
export function designWords(design: SequentialDesign): string {
  return `group-sequential, O'Brien-Fleming-type alpha spending (Lan-DeMets), two-sided alpha ${design.alpha}, non-binding futility at ${Math.round(design.minEffect * 100)} pts (beta ${design.beta}), at most ${design.maxRuns} runs a condition`;
}
