import type { Command } from 'commander';
import { EvalrigError } from '../../errors/index.js';
import { accountLines, formatSummaryTable, writeReport } from '../../report/index.js';

/** `evalrig report <out>`: recompute the campaign's report from its stored runs; runs nothing. */
export function registerReport(program: Command): void {
  program
    .command('report')
    .description(
      'recompute benchmark.json, BASELINE.md, report.md and report.html from the stored runs of a campaign folder (runs nothing)',
    )
    .argument('<out>', 'the campaign folder (the --out of evalrig run)')
    .action(async (out: string) => {
      const summary = await writeReport(out).catch((error: unknown) => {
        throw reportFolderError(out, error);
      });
      const extra = summary.runs.without_record
        ? ` (${summary.runs.without_record} run folders without run.json skipped)`
        : '';
      process.stdout.write(`${formatSummaryTable(summary)}\n\n`);
      if (summary.account) process.stdout.write(`${accountLines(summary.account).join('\n')}\n\n`);
      process.stdout.write(`${summary.runs.total} runs${extra}\n`);
      for (const b of summary.broken)
        process.stderr.write(`evalrig: ${b.run} left out, its files are broken: ${b.problem}\n`);
      process.stdout.write(`report: ${summary.files.reportHtml}\n`);
    });
}

const UNWRITABLE = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOSPC', 'EDQUOT', 'ENOTDIR', 'EISDIR']);

/** A folder that cannot take the report is the user's to fix: named, with what to do. */
function reportFolderError(out: string, error: unknown): unknown {
  const e = error as NodeJS.ErrnoException;
  if (error instanceof EvalrigError || typeof e?.code !== 'string' || !UNWRITABLE.has(e.code))
    return error;
  return new EvalrigError(
    `cannot write the report in ${out}: ${e.code}${e.path ? ` (${e.path})` : ''}; make the folder writable, or copy it elsewhere and report there`,
    { cause: error },
  );
}
