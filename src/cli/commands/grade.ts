import type { Command } from 'commander';
import { gradeCampaignFolder } from '../../campaign/index.js';
import { describeGradeSummary, gradingErrors } from '../../judge/index.js';
import { formatSummaryTable, writeReport } from '../../report/index.js';

interface GradeFlags {
  evals?: string;
  report: boolean;
  force?: boolean;
}

/**
 * `evalrig grade <out>`: grade a finished campaign's expectations again (only what changed
 * calls the judge), then recompute its report. Exits 1 when a grading or a blind comparison
 * errored (its answer did not parse or validate, or the judge could not be asked).
 */
export function registerGrade(program: Command): void {
  program
    .command('grade')
    .description(
      "grade a campaign's runs against their expectations with the eval set's judge: only runs whose inputs, expectations, rubric or judge (its model, a script's bytes) changed, or with no or an errored grading, call it (every run with --force); then recompute the report",
    )
    .argument('<out>', 'the campaign folder (the --out of evalrig run)')
    .option('--evals <file>', 'the eval set (default: the one conditions.json names)')
    .option('--force', 'ask the judge again for every run and blind comparison, whatever is stored')
    .option('--no-report', 'do not recompute the report')
    .action(async (out: string, flags: GradeFlags) => {
      const summary = await gradeCampaignFolder(out, {
        ...(flags.evals ? { evalSetFile: flags.evals } : {}),
        ...(flags.force ? { force: true } : {}),
      });
      process.stderr.write(`evalrig: ${describeGradeSummary(summary)}\n`);
      if (flags.report) {
        const report = await writeReport(out);
        process.stdout.write(`${formatSummaryTable(report)}\n`);
        process.stdout.write(`report: ${report.files.reportHtml}\n`);
      }
      const errored = gradingErrors(summary);
      if (errored) {
        process.stderr.write(`evalrig: ${errored}: exit 1\n`);
        process.exitCode = 1;
      }
    });
}
