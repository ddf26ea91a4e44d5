import type { Command } from 'commander';
import { formatSummaryTable, writeReport } from '../../report/index.js';

/** `evalrig report <out>`: recompute the campaign's report from its stored runs; runs nothing. */
export function registerReport(program: Command): void {
  program
    .command('report')
    .description(
      'recompute benchmark.json, BASELINE.md, report.md and report.html from the stored runs of a campaign folder (runs nothing)',
    )
    .argument('<out>', 'the campaign folder (the --out of evalrig run)')
    .action(async (out: string) => {
      const summary = await writeReport(out);
      const extra = summary.runs.without_record
        ? ` (${summary.runs.without_record} run folders without run.json skipped)`
        : '';
      process.stdout.write(`${formatSummaryTable(summary)}\n\n`);
      process.stdout.write(`${summary.runs.total} runs${extra}\n`);
      for (const b of summary.broken)
        process.stderr.write(`evalrig: ${b.run} left out, its files are broken: ${b.problem}\n`);
      process.stdout.write(`report: ${summary.files.reportHtml}\n`);
    });
}
