import type { NumberMeasure, RateMeasure } from '../measure/index.js';
import type { AgentMeasure } from './benchmark.js';
import type { NumberStats, RateStats } from './stats.js';

/** How each measure is named to a reader, and which way is good. */
export const MEASURE_LABELS: Record<RateMeasure | NumberMeasure, string> = {
  pr_draft_at_hand_over: 'PR draft at hand over',
  pr_described: 'PR described (planning)',
  pr_refreshed: 'PR refreshed (execution)',
  pr_marked_ready: 'PR marked ready (must stay 0)',
  checks_passed: 'checks passed',
  environment_broken: 'environment broken by the agent',
  record_tampered: 'record tampered with (gh record or stream)',
  condition_reached: 'staged instructions reached the model',
  gh_not_played: 'gh calls not played',
  files_changed: 'files changed',
  lines_added: 'lines added',
  lines_removed: 'lines removed',
  turns: 'turns',
  duration_s: 'duration (s)',
  diff_vs_reference: 'diff size vs the reference (x)',
};

/** How each agent measure is named to a reader. */
export const AGENT_LABELS: Record<AgentMeasure, string> = {
  tokens_in: 'agent tokens in',
  tokens_out: 'agent tokens out',
  cache_read: 'agent cache read tokens',
  cache_write: 'agent cache write tokens',
  cost_usd: 'agent cost (USD)',
  tool_calls: 'agent tool calls',
  tool_calls_failed: 'agent failed tool calls',
  tool_calls_refused: 'agent tool calls refused by the agent',
  model_requests: 'agent model requests',
};

/**
 * Each condition's agent as `package@version`, from benchmark.json's `provenance.agents` (a
 * cross-agent campaign; conditions.json is its source), or null when every condition ran the
 * campaign's one agent. report.md, report.html and the terminal summary name agents alike.
 */
export function conditionAgentNames(
  agents:
    Readonly<Record<string, { readonly package: string; readonly version: string }>> | undefined,
  conditions: readonly string[],
): string[] | null {
  if (!agents) return null;
  return conditions.map((c) => (agents[c] ? `${agents[c].package}@${agents[c].version}` : NA));
}

/**
 * A rate (a difference, a bound) in points with `places` decimals, "−" before a negative one
 * ("+" too with `plus`). A value that rounds to 0 but is not 0 gets up to three more places
 * ("−0.4", then "−<0.001"), so that nothing reads as "−0", and no bound that excludes 0 reads
 * as 0.
 *
 * @example
 * points(-0.004, 0); // "−0.4"
 * points(0.125, 1, true); // "+12.5"
 * points(0, 1); // "0.0"
 */
export function points(rate: number, places: number, plus = false): string {
  const value = Math.abs(rate * 100);
  let digits = places;
  let text = value.toFixed(digits);
  while (Number(text) === 0 && value !== 0 && digits < places + 3) text = value.toFixed(++digits);
  if (Number(text) === 0 && value !== 0) text = `<${(10 ** -digits).toFixed(digits)}`;
  const sign = rate < 0 ? '−' : rate > 0 && plus ? '+' : '';
  return `${sign}${text}`;
}

/** "+12.5 pts [−3.1, 40.2]": a difference of rates with its Newcombe 95% interval. */
export function formatRateDifference(d: {
  difference: number | null;
  ci95?: readonly [number, number] | null;
}): string {
  const diff = formatDifference(d.difference, 'rate');
  if (!d.ci95) return diff;
  return `${diff} [${points(d.ci95[0], 1)}, ${points(d.ci95[1], 1)}]`;
}

/** The text for an unavailable value (n 0, or nothing to compare). */
export const NA = 'n/a';

export function percent(value: number | null): string {
  return value === null ? NA : `${(value * 100).toFixed(1)}%`;
}

/** A number with two decimals at most, no trailing zeros. */
export function num(value: number | null): string {
  if (value === null) return NA;
  return Number.isInteger(value) ? String(value) : String(Number(value.toFixed(2)));
}

/** "80.0% (8/10) [49.0%, 94.3%]", or "n/a (n 0)". */
export function formatRate(stats: RateStats): string {
  if (stats.rate === null || stats.ci95 === null) return `${NA} (n 0)`;
  return `${percent(stats.rate)} (${stats.successes}/${stats.n}) [${percent(stats.ci95[0])}, ${percent(stats.ci95[1])}]`;
}

/** Short form for narrow tables: "80.0% (8/10)". */
export function formatRateShort(stats: RateStats): string {
  return stats.rate === null
    ? `${NA} (n 0)`
    : `${percent(stats.rate)} (${stats.successes}/${stats.n})`;
}

/** "3.2 ± 1.1 (1–5, n 10)", or "n/a (n 0)". */
export function formatNumber(stats: NumberStats): string {
  if (stats.mean === null) return `${NA} (n 0)`;
  const sd = stats.stddev === null ? '' : ` ± ${num(stats.stddev)}`;
  return `${num(stats.mean)}${sd} (${num(stats.min)}–${num(stats.max)}, n ${stats.n})`;
}

/** A signed difference: "+12.5 pts" for rates, "+1.2" for numbers. */
export function formatDifference(value: number | null, kind: 'rate' | 'number'): string {
  if (value === null) return NA;
  if (value === 0) return kind === 'rate' ? '±0.0 pts' : '±0';
  if (kind === 'rate') return `${points(value, 1, true)} pts`;
  return `${value > 0 ? '+' : '−'}${smallNum(Math.abs(value))}`;
}

/** num(), but a value it would round to 0 keeps two significant digits ("0.0012"). */
export function smallNum(value: number): string {
  const text = num(value);
  return text === '0' && value !== 0 ? String(Number(value.toPrecision(2))) : text;
}

/**
 * "0.0095", "<0.0001": Fisher's p to four places, more where four would carry a p under 0.05
 * up to "0.0500" (it would read as not significant).
 */
export function formatP(p: number | null): string {
  if (p === null) return NA;
  if (p < 0.0001) return '<0.0001';
  let places = 4;
  let text = p.toFixed(places);
  while (p < 0.05 && Number(text) >= 0.05 && places < 12) text = p.toFixed(++places);
  return text;
}

/** Escapes text for HTML content and quoted attribute values. */
export function esc(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** A table cell: pipes escaped, one line. */
export function cell(text: string): string {
  return text
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/[\r\n]+/g, ' ');
}

export function table(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const line = (cells: readonly string[]): string => `| ${cells.map(cell).join(' | ')} |`;
  return [line(header), `|${header.map(() => ' --- ').join('|')}|`, ...rows.map(line)].join('\n');
}
