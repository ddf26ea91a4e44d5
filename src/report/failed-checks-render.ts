/**
 * The "Failed checks" section of report.md and report.html: per condition and check, how many
 * runs failed it, and the last lines of one failed run's output. That output is what a command
 * in the agent's container printed: escaped in HTML, fenced in Markdown (a fence longer than
 * any run of backticks in it), so that nothing in it can end its block or become markup.
 */
import type { BenchmarkFile } from './benchmark-file.js';
import type { FailedCheck } from './failed-checks.js';
import { esc, table } from './format.js';

const INTRO =
  "Checks that failed in some measured run. The last lines are one failed run's output, as a command in the agent's container printed it (terminal escapes taken out).";

/** "3 of 10 runs (1 ended before the check ran)". */
function failedWords(f: FailedCheck): string {
  const before = f.not_run > 0 ? ` (${f.not_run} ended before the check ran)` : '';
  return `${f.failed} of ${f.runs} run${f.runs === 1 ? '' : 's'}${before}`;
}

/** "exit code 1", or why there is none. */
function exitWords(code: number | null): string {
  return code === null ? 'no exit code (killed or timed out)' : `exit code ${code}`;
}

/** What the example's lines are: the whole output, or its end. */
function linesWords(e: NonNullable<FailedCheck['example']>): string {
  if (e.tail === '') return 'no output';
  return e.cut ? 'its last lines' : 'its output';
}

/** A Markdown fence no line of `text` can close: longer than its longest run of backticks. */
function fence(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/gu)].map((m) => m[0].length));
  return '`'.repeat(Math.max(3, longest + 1));
}

export function failedChecksMarkdown(b: BenchmarkFile): string[] {
  const failed = b.failed_checks ?? [];
  if (failed.length === 0) return [];
  const rows = failed.map((f) => [
    f.condition,
    f.check,
    failedWords(f),
    f.example ? `${f.example.run}: ${exitWords(f.example.exit_code)}` : 'none ran it',
  ]);
  const outputs = failed.flatMap((f) => {
    const e = f.example;
    if (!e || e.tail === '') return [];
    const mark = fence(e.tail);
    return [
      `${f.condition}, check ${f.check}: ${e.run}, ${exitWords(e.exit_code)}, ${linesWords(e)}:`,
      '',
      `${mark}text`,
      e.tail,
      mark,
      '',
    ];
  });
  return [
    '## Failed checks',
    '',
    INTRO,
    '',
    table(['condition', 'check', 'runs failed', 'run shown'], rows),
    '',
    ...outputs,
  ];
}

export function failedChecksHtml(b: BenchmarkFile): string {
  const failed = b.failed_checks ?? [];
  if (failed.length === 0) return '';
  const rows = failed.map((f) => {
    const e = f.example;
    const shown = e
      ? `<td><code>${esc(e.run)}</code><div class="small">${esc(exitWords(e.exit_code))}, ${esc(linesWords(e))}</div>${e.tail === '' ? '' : `<pre class="check-output">${esc(e.tail)}</pre>`}</td>`
      : '<td class="small">none ran it</td>';
    return `<tr class="failed-check" data-condition="${esc(f.condition)}" data-check="${esc(f.check)}" data-failed="${f.failed}" data-runs="${f.runs}"><td>${esc(f.condition)}</td><td>${esc(f.check)}</td><td class="v">${esc(failedWords(f))}</td>${shown}</tr>`;
  });
  return `<section id="failed-checks"><h2>Failed checks</h2><p class="small">${esc(INTRO)}</p><table><tr><th>condition</th><th>check</th><th>runs failed</th><th>run shown</th></tr>${rows.join('')}</table></section>`;
}
