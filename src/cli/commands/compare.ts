import { Option, type Command } from 'commander';
import { compareCampaigns, renderCompare, writeCompare } from '../../compare/index.js';
import { EvalrigError } from '../../errors/index.js';

const FORMATS = ['md', 'html', 'json'] as const;
type Format = (typeof FORMATS)[number];

const UNWRITABLE = new Set([
  'EACCES',
  'EPERM',
  'EROFS',
  'ENOSPC',
  'EDQUOT',
  'ENOTDIR',
  'EISDIR',
  'EEXIST',
]);

/**
 * `evalrig compare <out-a> <out-b>`: two finished campaigns side by side, B − A,
 * with the provenance of each; runs nothing. Prints one rendering, or writes
 * compare.json, compare.md and compare.html with --out.
 */
export function registerCompare(program: Command): void {
  program
    .command('compare')
    .description(
      'compare two finished campaign folders: every measure side by side, B − A with its 95% interval, and what differs in their provenance (runs nothing)',
    )
    .argument('<out-a>', 'the first campaign folder (A, e.g. before a change)')
    .argument('<out-b>', 'the second campaign folder (B, e.g. after it)')
    .option(
      '--out <dir>',
      'write compare.json, compare.md and compare.html there instead of printing',
    )
    .addOption(
      new Option('--format <format>', 'what to print when there is no --out')
        .choices(FORMATS)
        .default('md'),
    )
    .action(async (a: string, b: string, options: { out?: string; format: Format }) => {
      const comparison = await compareCampaigns(a, b);
      if (options.out === undefined) {
        const rendered = renderCompare(comparison);
        process.stdout.write(options.format === 'md' ? rendered.md : rendered[options.format]);
        return;
      }
      const out = options.out;
      const files = await writeCompare(out, comparison).catch((error: unknown) => {
        const e = error as NodeJS.ErrnoException;
        if (typeof e?.code !== 'string' || !UNWRITABLE.has(e.code)) throw error;
        throw new EvalrigError(
          `cannot write the comparison in ${out}: ${e.code}${e.path ? ` (${e.path})` : ''}; choose another --out`,
          { cause: error },
        );
      });
      process.stdout.write(`${comparison.provenance.verdict}\n`);
      process.stdout.write(
        `compare: ${files.md}\ncompare: ${files.json}\ncompare: ${files.html}\n`,
      );
    });
}
