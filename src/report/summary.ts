import { RATE_MEASURES } from '../measure/index.js';
import { numberMeasuresOf } from './benchmark.js';
import { namedRates, rateOf } from './rate-families.js';
import { anyFailure, failuresCell } from './failures.js';
import { conditionAgentNames, formatRateShort, MEASURE_LABELS, NA, num } from './format.js';
import type { ReportSummary } from './write.js';

/**
 * The per-condition numbers as a plain-text table, one row per measure and a
 * column per condition, for the end of `evalrig run` and `evalrig report`.
 *
 * @example
 * measure                  with_skill      without_skill
 * runs                     10              10
 * PR draft at hand over    100.0% (10/10)  40.0% (4/10)
 */
export function formatSummaryTable(
  summary: Pick<ReportSummary, 'conditions' | 'baselineCondition'> &
    Pick<Partial<ReportSummary>, 'agents'>,
): string {
  const conds = summary.conditions;
  const header = [
    'measure',
    ...conds.map((c) =>
      c.condition === summary.baselineCondition && conds.length > 1
        ? `${c.condition} (baseline)`
        : c.condition,
    ),
  ];
  const rows: string[][] = [
    header,
    ['runs', ...conds.map((c) => String(c.runs))],
    ...agentRow(summary.agents, conds),
    [
      'completed/timed out/broken/failed',
      ...conds.map(
        (c) => `${c.status.completed}/${c.status.timed_out}/${c.status.broken}/${c.status.failed}`,
      ),
    ],
    ...(anyFailure(conds)
      ? [['failed by harness/model API/agent/time-out', ...conds.map(failuresCell)]]
      : []),
    ...RATE_MEASURES.map((m) => [
      MEASURE_LABELS[m],
      ...conds.map((c) => formatRateShort(c.measures[m])),
    ]),
    ...numberMeasuresOf(summary).map((m) => [
      `${MEASURE_LABELS[m]} (mean)`,
      ...conds.map((c) => {
        const s = c.measures[m];
        return s.mean === null ? NA : `${num(s.mean)} (n ${s.n})`;
      }),
    ]),
    ...namedRates(conds).map((r) => [r.label, ...conds.map((c) => formatRateShort(rateOf(c, r)))]),
  ];
  const widths = header.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  const line = (r: readonly string[]): string =>
    r
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [
    line(rows[0]!),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...rows.slice(1).map(line),
  ].join('\n');
}

/** The row naming each condition's agent, in a campaign that plays several. */
function agentRow(agents: ReportSummary['agents'], conds: ReportSummary['conditions']): string[][] {
  const names = conditionAgentNames(
    agents,
    conds.map((c) => c.condition),
  );
  return names ? [['agent', ...names]] : [];
}
