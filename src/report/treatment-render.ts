/**
 * The report's first lines, in report.md and report.html alike: the conditions whose staged
 * instructions did not reach the model in every run, then, per condition that stages
 * something, in how many runs each staged file loaded and a skill was used (and, where a
 * skill was used in some runs only, those runs beside the others: observational).
 */
import type { BenchmarkFile } from './benchmark-file.js';
import { esc } from './format.js';

const SUMMARY_LEAD =
  'Treatment, per condition (loaded: the staged file reached the model; used: the model used the skill; loaded is not used):';

/** The summary's lines: each condition's, then its split by use when it has one. */
function summaryLines(
  b: BenchmarkFile,
): Array<{ condition: string; text: string; split: boolean }> {
  return (b.treatment ?? []).flatMap((t) => [
    { condition: t.condition, text: t.text, split: false },
    ...(t.by_use ? [{ condition: t.condition, text: t.by_use.text, split: true }] : []),
  ]);
}

/** report.md's treatment lines, before any verdict: what the runs measured may not be the condition. */
export function treatmentMarkdown(b: BenchmarkFile): string[] {
  const warnings = (b.treatment_warnings ?? []).flatMap((w) => [`> ⚠ **${w.text}.**`, '']);
  const lines = summaryLines(b);
  if (lines.length === 0) return warnings;
  return [...warnings, SUMMARY_LEAD, '', ...lines.map((l) => `- ${l.text}`), ''];
}

/** report.html's treatment section: the warnings, then the summary. Empty when there is nothing to say. */
export function treatmentHtml(b: BenchmarkFile): string {
  const warnings = (b.treatment_warnings ?? []).map(
    (w) =>
      `<p class="note treatment-warning" data-condition="${esc(w.condition)}"><strong>⚠ ${esc(w.text)}.</strong></p>`,
  );
  const lines = summaryLines(b).map(
    (l) =>
      `<li class="${l.split ? 'by-use' : 'treatment-line'}" data-condition="${esc(l.condition)}">${esc(l.text)}</li>`,
  );
  const summary =
    lines.length === 0
      ? ''
      : `<p class="small">${esc(SUMMARY_LEAD)}</p><ul class="treatment-summary">${lines.join('')}</ul>`;
  if (warnings.length === 0 && summary === '') return '';
  return `<section id="treatment">${warnings.join('')}${summary}</section>`;
}
