/**
 * `evalrig compare A B --fail-if-worse MEASURE[,..]`: a CI's question, "did B get worse than A
 * on what I care about?", answered from the comparison with the same tests its tables show.
 *
 * For each named measure, in every condition both campaigns have (the conditions overall: the
 * per-eval groups would ask the same question many times over and raise false alarms):
 * - a rate is worse when it moved the wrong way with Fisher's p < 0.05, decided exactly
 *   (`fisherBelow`); when both campaigns ran several of the same evals with it, tested within
 *   them instead (./gate-strata.ts: Mantel-Haenszel's difference, the exact CMH p), as the
 *   report's verdict is;
 * - a number is worse when it moved the wrong way and Welch's 95% interval leaves 0 out (the
 *   same as Welch's p < 0.05; with no spread on either side, any move; below two runs a side
 *   nothing can be told).
 * Which way is worse is known per measure (MEASURE_DIRECTIONS); a measure with no better
 * direction (lines added) cannot be gated, and says so.
 */
import { InputError } from '../errors/index.js';
import { formatP } from '../report/format.js';
import { fisherBelow } from '../report/stats.js';
import type { WithinEvals } from '../report/stratify.js';
import { differenceText, measureLabel, pText } from './format.js';
import { GATE_ALPHA, rateWithinEvals, withinTestName } from './gate-strata.js';
import type { CompareFile, MeasureComparison } from './types.js';

/** Which way a measure is better. */
export type Better = 'higher' | 'lower';

/** The better direction of every measure evalrig makes whose direction is clear. */
export const MEASURE_DIRECTIONS: Readonly<Record<string, Better>> = {
  pr_draft_at_hand_over: 'higher',
  pr_described: 'higher',
  pr_refreshed: 'higher',
  pr_marked_ready: 'lower',
  checks_passed: 'higher',
  environment_broken: 'lower',
  record_tampered: 'lower',
  gh_not_played: 'lower',
  duration_s: 'lower',
  // diff_vs_reference is not here: nearer the reference's size is better either way.
  'agent.tokens_in': 'lower',
  'agent.tokens_out': 'lower',
  'agent.cache_read': 'lower',
  'agent.cache_write': 'lower',
  'agent.cost_usd': 'lower',
  'agent.tool_calls': 'lower',
  'agent.tool_calls_failed': 'lower',
  'agent.tool_calls_refused': 'lower',
  'agent.model_requests': 'lower',
  'grading.all_passed': 'higher',
  'grading.expectations': 'higher',
  'grading.expectations_passed': 'higher',
  'grading.blind_wins': 'higher',
};

const FLAG = '--fail-if-worse';

/** Which way `measure` is better; checks, message checks and expectations are met or not: higher. */
export function betterDirection(measure: string): Better | undefined {
  const met = ['checks.', 'message_checks.', 'grading.expectation: '];
  if (met.some((prefix) => measure.startsWith(prefix))) {
    return 'higher';
  }
  return MEASURE_DIRECTIONS[measure];
}

/**
 * The measure names of the flag's value(s), each checked to have a better direction: a name
 * evalrig does not know is a clear error naming the flag, before anything is read.
 *
 * @example
 * gateMeasures(['checks_passed,agent.cost_usd']); // ['checks_passed', 'agent.cost_usd']
 */
export function gateMeasures(values: readonly string[]): string[] {
  const names = values.flatMap((v) => v.split(',').map((s) => s.trim()));
  if (names.length === 0 || names.some((n) => n === '')) {
    throw new InputError(`${FLAG} needs measure names, comma-separated (e.g. checks_passed)`);
  }
  for (const name of names) {
    if (betterDirection(name)) continue;
    const known = [
      ...Object.keys(MEASURE_DIRECTIONS),
      'checks.<name>',
      'message_checks.<name>',
    ].join(', ');
    const why = ['files_changed', 'lines_added', 'lines_removed', 'turns'].includes(name)
      ? 'has no better direction to fail on'
      : 'is no measure evalrig knows which way is better';
    throw new InputError(`${FLAG}: ${JSON.stringify(name)} ${why}; measures: ${known}`);
  }
  return [...new Set(names)];
}

/** One measure of one condition where B is worse than A. */
export interface Worse {
  readonly condition: string;
  readonly measure: string;
  /** The line a CI log shows. */
  readonly text: string;
}

/** What the gate found: where B is worse, and measures it could not tell on. */
export interface GateResult {
  readonly worse: readonly Worse[];
  readonly notes: readonly string[];
}

function movedWrongWay(difference: number | null, better: Better): boolean {
  if (difference === null || difference === 0) return false;
  return better === 'higher' ? difference < 0 : difference > 0;
}

/** Whether the move is beyond chance: Fisher's p < 0.05 exactly, or Welch's interval off 0. */
function beyondChance(m: MeasureComparison): boolean | null {
  if (m.kind === 'rate') {
    const { a, b } = m;
    return fisherBelow(b.successes, b.n - b.successes, a.successes, a.n - a.successes, GATE_ALPHA);
  }
  if (m.ci95 === null) return null;
  return m.ci95[0] > 0 || m.ci95[1] < 0;
}

/**
 * Where B is worse than A on the named measures, in each condition overall. A measure that no
 * condition has on both sides is an error naming the flag (the gate would check nothing).
 */
export function worseOn(comparison: CompareFile, measures: readonly string[]): GateResult {
  const worse: Worse[] = [];
  const notes: string[] = [];
  const overall = comparison.groups.filter((g) => g.eval === null);
  for (const measure of measures) {
    const better = betterDirection(measure)!;
    const found = overall.flatMap((g) =>
      g.measures.filter((m) => m.measure === measure).map((m) => ({ g, m })),
    );
    if (found.length === 0) {
      throw new InputError(
        `${FLAG}: no condition has ${JSON.stringify(measure)} on both sides (A: ${comparison.a.dir}, B: ${comparison.b.dir})`,
      );
    }
    for (const { g, m } of found) {
      const where = `${measureLabel(measure)} (${measure}), condition ${g.condition}`;
      const beyond = beyondChance(m);
      if (beyond === null || m.difference === null) {
        notes.push(`${where}: cannot tell (too few runs a side)`);
        continue;
      }
      const within = m.kind === 'rate' ? rateWithinEvals(comparison, g.condition, m) : null;
      if (within) {
        const line = withinLine(within, m, better, where);
        if (line.worse) worse.push({ condition: g.condition, measure, text: line.worse });
        if (line.note) notes.push(line.note);
        continue;
      }
      if (!movedWrongWay(m.difference, better) || !beyond) continue;
      const p = m.kind === 'rate' ? `, p ${pText(m)}` : '';
      worse.push({
        condition: g.condition,
        measure,
        text: `B is worse than A on ${where}: ${differenceText(m)}${p} (${better} is better)`,
      });
    }
  }
  return { worse, notes };
}

/**
 * A rate tested within evals: the line when B is worse there beyond chance (with the pooled
 * difference when it has the other sign), or a note when the pooled runs alone would have
 * failed it and the evals do not.
 */
function withinLine(
  w: WithinEvals,
  pooled: MeasureComparison,
  better: Better,
  where: string,
): { worse?: string; note?: string } {
  const shown = differenceText({ ...pooled, difference: w.difference, ci95: w.ci95 });
  const how = `within ${w.record.evals} evals ${shown}, ${withinTestName(w)} ${formatP(w.p_value)}`;
  if (movedWrongWay(w.difference, better) && w.below) {
    const turned = w.record.simpson
      ? `; pooled over the evals ${differenceText(pooled)}, the other sign (Simpson's paradox)`
      : '';
    return { worse: `B is worse than A on ${where}: ${how}${turned} (${better} is better)` };
  }
  if (movedWrongWay(pooled.difference, better) && beyondChance(pooled) === true) {
    return {
      note: `${where}: worse over the runs pooled across evals (${differenceText(pooled)}, p ${pText(pooled)}), not beyond chance ${how}: not failed`,
    };
  }
  return {};
}
