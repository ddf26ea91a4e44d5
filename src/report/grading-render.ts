/**
 * The judge's section of report.md and report.html, from benchmark.json's `grading`: rates per
 * condition (all expectations met, expectations met), the difference to the baseline, each
 * expectation's rate, and the blind comparison's win rates.
 */
import { esc, formatDifference, formatNumber, formatP, formatRate, table } from './format.js';
import type { BlindGrading, GradingSection } from './grading.js';

const NOTE =
  'Graded by the judge model after each run (grading.json per run). A grading error (an answer that did not parse or validate, or a failed call) counts as unknown, never as a fail.';

/** Who graded, in a sentence: the judge model(s) and rubric version(s). */
function judgesLine(g: GradingSection): string {
  if (g.judges.length === 0) return '';
  const each = g.judges.map(
    (j) =>
      `${j.model} (${j.source}${(j.scripts_sha256 ?? []).map((s) => ` ${s.slice(0, 12)}`).join(',')}) with ${j.rubric} (sha256 ${j.rubric_sha256.slice(0, 12)}), ${j.runs} run(s)`,
  );
  const warn =
    g.judges.length > 1
      ? ' More than one judge or rubric graded these runs: run evalrig grade to grade them all alike.'
      : '';
  return `Judge: ${each.join('; ')}.${warn}`;
}

/**
 * A warning when a judge script answered from its catch-all: such a grade (or a blind
 * comparison's winner) is the script's default, not a reading of the run, and a side can
 * "win" every pair that way. Empty when none did.
 */
export function fallbackWarning(g: GradingSection): string {
  const parts = [
    ...g.conditions
      .filter((c) => (c.fell_back ?? 0) > 0)
      .map((c) => `${c.fell_back} of ${c.graded} grading(s) of ${c.condition}`),
    ...(g.blind ?? [])
      .filter((b) => (b.fell_back ?? 0) > 0)
      .map(
        (b) =>
          `${b.fell_back} of ${b.judged} blind comparison(s) of ${b.conditions[0]} and ${b.conditions[1]}`,
      ),
  ];
  if (parts.length === 0) return '';
  return `Warning: ${parts.join(', ')} came from the judge script's catch-all (a response without "when" while none with one fitted the request): those answers say nothing of the runs. Give the script a response whose "when" fits each request; evalrig try-script shows which response each recorded request gets.`;
}

function conditionRows(g: GradingSection): string[][] {
  return g.conditions.map((c) => [
    c.condition,
    formatRate(c.all_passed),
    formatRate(c.expectations),
    formatNumber(c.expectations_passed),
    String(c.graded),
    String(c.errors),
    String(c.without_grading),
  ]);
}

const CONDITION_HEADER = [
  'condition',
  'all expectations met (runs)',
  'expectations met',
  'share met per run',
  'graded',
  'grading errors',
  'not graded',
];

function comparisonRows(g: GradingSection): string[][] {
  return g.comparisons.flatMap((c) => [
    [
      `${c.condition} vs ${c.baseline}`,
      'all expectations met',
      formatDifference(c.all_passed.difference, 'rate'),
      formatP(c.all_passed.p_value),
    ],
    [
      `${c.condition} vs ${c.baseline}`,
      'expectations met',
      formatDifference(c.expectations.difference, 'rate'),
      formatP(c.expectations.p_value),
    ],
  ]);
}

function expectationRows(g: GradingSection): string[][] {
  return g.expectations.map((e) => [e.eval, e.condition, e.expectation, formatRate(e.stats)]);
}

function blindRows(b: BlindGrading): string[][] {
  return b.wins.map((w) => [w.condition, formatRate(w.stats)]);
}

function blindLine(b: BlindGrading): string {
  return `Blind comparison of ${b.conditions[0]} and ${b.conditions[1]}: ${b.judged} judged (${b.ties} ties, a win for neither), ${b.errors} error(s). Each pair of runs was shown unlabeled in a seeded order recorded in comparisons/${b.conditions[0]}.vs.${b.conditions[1]}/<eval>/run-NN/comparison.json.`;
}

/** report.md's section, or nothing when the campaign was not graded. */
export function gradingMarkdown(g: GradingSection | undefined): string[] {
  if (!g) return [];
  const parts = [
    '## Expectations (judge)',
    '',
    NOTE,
    '',
    ...(g.judges.length ? [judgesLine(g), ''] : []),
    ...(fallbackWarning(g) ? [`**${fallbackWarning(g)}**`, ''] : []),
    table(CONDITION_HEADER, conditionRows(g)),
    '',
  ];
  if (g.comparisons.length > 0) {
    parts.push(table(['comparison', 'measure', 'difference', "Fisher's p"], comparisonRows(g)), '');
  }
  if (g.expectations.length > 0) {
    parts.push(table(['eval', 'condition', 'expectation', 'met'], expectationRows(g)), '');
  }
  for (const b of g.blind ?? []) {
    parts.push(blindLine(b), '', table(['condition', 'win rate'], blindRows(b)), '');
  }
  return parts;
}

function htmlTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const head = `<tr>${header.map((h) => `<th>${esc(h)}</th>`).join('')}</tr>`;
  const body = rows.map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`);
  return `<table>${head}${body.join('')}</table>`;
}

/** report.html's section, or nothing when the campaign was not graded. */
export function gradingHtml(g: GradingSection | undefined): string {
  if (!g) return '';
  const parts = [
    `<p class="small">${esc(NOTE)}</p>`,
    ...(g.judges.length ? [`<p class="small" id="judges">${esc(judgesLine(g))}</p>`] : []),
    ...(fallbackWarning(g)
      ? [`<p class="note judge-fallback">⚠ ${esc(fallbackWarning(g))}</p>`]
      : []),
    htmlTable(CONDITION_HEADER, conditionRows(g)),
  ];
  if (g.comparisons.length > 0) {
    parts.push(htmlTable(['comparison', 'measure', 'difference', "Fisher's p"], comparisonRows(g)));
  }
  if (g.expectations.length > 0) {
    parts.push(htmlTable(['eval', 'condition', 'expectation', 'met'], expectationRows(g)));
  }
  for (const b of g.blind ?? []) {
    parts.push(
      `<p class="blind">${esc(blindLine(b))}</p>`,
      htmlTable(['condition', 'win rate'], blindRows(b)),
    );
  }
  return `<section id="grading"><h2>Expectations (judge)</h2>${parts.join('')}</section>`;
}
