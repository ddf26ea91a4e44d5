/**
 * The behaviour figures in words: each difference as a line, and the few clearest at the top
 * ("with_skill runs the tests in 90% vs 30% of runs, +60 pts [24, 80], p 0.0011").
 */
import type { BenchmarkFile } from './benchmark-file.js';
import { formatVerdictP, VERDICT_ALPHA } from './verdict-words.js';

export type BehaviourDifference = NonNullable<BenchmarkFile['behaviour']>['differences'][number];

/** How many differences the top of the report says in sentences. */
export const SENTENCES = 3;

const RATE_PHRASES: Readonly<Record<string, string>> = {
  ran_tests: 'runs the tests',
  tests_before_last_commit: 'runs the tests before its last commit',
};

const COUNT_LABELS: Readonly<Record<string, string>> = {
  model_calls: 'model calls',
  tool_calls: 'tool calls',
  shell_commands: 'shell commands',
  files_read: 'files read',
  files_edited: 'files edited',
  files_changed: 'files changed in the tree',
  gh_calls: 'gh calls',
};

/** A behaviour figure's readable name ("calls to Bash", "runs of git", "files read"). */
export function behaviourLabel(measure: string): string {
  if (measure.startsWith('step.')) return `passes step check ${measure.slice(5)}`;
  if (measure.startsWith('tool.')) return `calls to ${measure.slice(5)}`;
  if (measure.startsWith('program.')) return `runs of ${measure.slice(8)}`;
  return RATE_PHRASES[measure] ?? COUNT_LABELS[measure] ?? measure;
}

const pct = (v: number): string => `${Math.round(v * 100)}%`;
const pts = (v: number): string =>
  `${v > 0 ? '+' : v < 0 ? '−' : ''}${Math.abs(Math.round(v * 100))}`;
const num = (v: number): string => (Number.isInteger(v) ? String(v) : v.toFixed(1));
const signed = (v: number): string => `${v > 0 ? '+' : v < 0 ? '−' : ''}${num(Math.abs(v))}`;

export function behaviourDifference(
  condition: string,
  baseline: string,
  measure: string,
  kind: 'rate' | 'count',
  difference: number | null,
  ci95: readonly [number, number] | null,
  p: number | null,
  other: number | null,
  base: number | null,
): BehaviourDifference {
  const significant =
    p !== null && p < VERDICT_ALPHA && ci95 !== null && (ci95[0] > 0 || ci95[1] < 0);
  const chance = significant ? '' : ' (could be chance)';
  let text = `${condition} ${behaviourLabel(measure)}`;
  if (difference !== null && other !== null && base !== null) {
    const ci = ci95
      ? ` [${kind === 'rate' ? `${pts(ci95[0])}, ${pts(ci95[1])}` : `${signed(ci95[0])}, ${signed(ci95[1])}`}]`
      : '';
    text =
      kind === 'rate'
        ? `${condition} ${behaviourLabel(measure)} in ${pct(other)} vs ${pct(base)} of runs, ${pts(difference)} pts${ci}, ${formatVerdictP(p)}${chance}`
        : `${condition} makes ${num(other)} vs ${num(base)} ${behaviourLabel(measure)} a run, ${signed(difference)}${ci}, ${formatVerdictP(p)}${chance}`;
  }
  return {
    condition,
    baseline,
    measure,
    kind,
    difference,
    ci95: ci95 ? [ci95[0], ci95[1]] : null,
    p_value: p,
    significant,
    text,
  };
}

/**
 * The clearest differences: the ones that state a difference, the eval set's own step checks
 * first (they are the questions its author asked), then smallest p; at most three.
 */
export function behaviourSentences(differences: readonly BehaviourDifference[]): string[] {
  const asked = (d: BehaviourDifference): number => (d.measure.startsWith('step.') ? 0 : 1);
  return differences
    .filter((d) => d.significant)
    .sort(
      (a, b) =>
        asked(a) - asked(b) ||
        a.p_value! - b.p_value! ||
        Math.abs(b.difference!) - Math.abs(a.difference!),
    )
    .slice(0, SENTENCES)
    .map((d) => d.text);
}
