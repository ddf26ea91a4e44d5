/**
 * The report's first lines, in report.md and report.html alike, before any verdict: what the
 * runs measured may not be the condition. The conditions whose staged instructions did not
 * reach the model in every run, those whose agent refused tool calls, then, per condition
 * that stages something, in how many runs each staged file loaded and a skill was used (and,
 * where a skill was used in some runs only, those runs beside the others: observational).
 */
import type { BenchmarkFile } from './benchmark-file.js';
import { esc } from './format.js';

const SUMMARY_LEAD =
  'Treatment, per condition (loaded: the staged file reached the model; used: the model used the skill; loaded is not used):';

/** The warnings, treatment first, each with the class report.html marks it with. */
function warnings(b: BenchmarkFile): Array<{ condition: string; text: string; cls: string }> {
  return [
    ...(b.treatment_warnings ?? []).map((w) => ({ ...w, cls: 'treatment-warning' })),
    ...(b.refusal_warnings ?? []).map((w) => ({ ...w, cls: 'refusal-warning' })),
  ];
}

/** The summary's lines: each condition's, then its split by use when it has one. */
function summaryLines(b: BenchmarkFile): Array<{ condition: string; text: string; cls: string }> {
  return (b.treatment ?? []).flatMap((t) => [
    { condition: t.condition, text: t.text, cls: 'treatment-line' },
    ...(t.by_use ? [{ condition: t.condition, text: t.by_use.text, cls: 'by-use' }] : []),
  ]);
}

/** report.md's first lines: each warning quoted, then the treatment summary as a list. */
export function firstLinesMarkdown(b: BenchmarkFile): string[] {
  const quoted = warnings(b).flatMap((w) => [`> ⚠ **${w.text}.**`, '']);
  const lines = summaryLines(b);
  if (lines.length === 0) return quoted;
  return [...quoted, SUMMARY_LEAD, '', ...lines.map((l) => `- ${l.text}`), ''];
}

/** report.html's treatment section: the warnings, then the summary; empty when there is nothing to say. */
export function firstLinesHtml(b: BenchmarkFile): string {
  const notes = warnings(b).map(
    (w) =>
      `<p class="note ${w.cls}" data-condition="${esc(w.condition)}"><strong>⚠ ${esc(w.text)}.</strong></p>`,
  );
  const lines = summaryLines(b).map(
    (l) => `<li class="${l.cls}" data-condition="${esc(l.condition)}">${esc(l.text)}</li>`,
  );
  const summary =
    lines.length === 0
      ? ''
      : `<p class="small">${esc(SUMMARY_LEAD)}</p><ul class="treatment-summary">${lines.join('')}</ul>`;
  if (notes.length === 0 && summary === '') return '';
  return `<section id="treatment">${notes.join('')}${summary}</section>`;
}
