/**
 * The verdict lines tested within evals, as report.md and report.html show them: how they
 * were tested, under the lines; each eval's own line on demand (folded in report.html, in the
 * per-eval section of report.md), since a campaign of many evals would bury the answer.
 */
import type { BenchmarkFile } from './benchmark-file.js';
import { esc } from './format.js';
import { phraseOf, type Verdict } from './verdict.js';

/** The verdicts tested within evals. */
function withinEvals(b: BenchmarkFile): Verdict[] {
  return (b.verdicts ?? []).filter((v) => v.stratified !== undefined);
}

/** How the lines tested within evals were, in a sentence; empty when none was. */
export function withinEvalsNote(b: BenchmarkFile): string {
  const lines = withinEvals(b);
  if (lines.length === 0) return '';
  const chi = lines.some((v) => v.test === 'cmh_corrected')
    ? "; past a few hundred runs, Cochran-Mantel-Haenszel's chi-square with continuity correction"
    : '';
  return `Lines "stratified by N evals" compare the conditions within each eval and combine the evals, rather than pool their runs, which can turn a difference over (Simpson's paradox): Mantel-Haenszel's difference (each eval weighted by n₁n₂/(n₁ + n₂)) with its 95% interval from each eval's Wilson intervals, and p by the exact conditional (CMH) test of the evals' 2×2 tables${chi}.`;
}

/** report.html: a verdict's per-eval lines, folded under it. Empty for a line of one eval. */
export function perEvalDetailsHtml(v: Verdict): string {
  const s = v.stratified;
  if (!s) return '';
  const items = s.per_eval.map((e) => `<li data-eval="${esc(e.eval)}">${esc(e.text)}</li>`);
  return `<details class="per-eval"><summary class="small">per eval (${s.evals})</summary><ul>${items.join('')}</ul></details>`;
}

/** report.md: each line tested within evals, with each eval's own line beneath it. */
export function perEvalVerdictsMarkdown(b: BenchmarkFile): string[] {
  const lines = withinEvals(b);
  if (lines.length === 0) return [];
  return [
    '### The verdict, eval by eval',
    '',
    "Each verdict line stratified by eval, and each eval's own difference (Newcombe's interval, Fisher's p):",
    '',
    ...lines.flatMap((v) => [
      `- ${v.condition} vs ${v.baseline}: ${phraseOf(v.measure)}`,
      ...v.stratified!.per_eval.map((e) => `  - ${e.text}`),
    ]),
    '',
  ];
}
