import { Option, type Command } from 'commander';
import {
  compareCampaigns,
  gateMeasures,
  renderCompare,
  worseOn,
  writeCompare,
  type GateResult,
} from '../../compare/index.js';
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

/** Says where B is worse on the gated measures (stderr); 1 when it is somewhere, else 0. */
function gate({ worse, notes }: GateResult, measures: readonly string[]): number {
  for (const note of notes) process.stderr.write(`evalrig: --fail-if-worse: ${note}\n`);
  for (const w of worse) process.stderr.write(`evalrig: ${w.text}\n`);
  if (worse.length === 0) {
    process.stderr.write(
      `evalrig: --fail-if-worse: B is not worse than A on ${measures.join(', ')}\n`,
    );
    return 0;
  }
  return 1;
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/**
 * `evalrig compare <out-a> <out-b>`: two finished campaigns side by side, B − A,
 * with the provenance of each; runs nothing. Prints one rendering, or writes
 * compare.json, compare.md and compare.html with --out. With --fail-if-worse,
 * exits 1 when B is worse than A (p < 0.05) on a named measure.
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
    .option(
      '--fail-if-worse <measures>',
      'exit 1 when B is worse than A with p < 0.05 on one of these measures (comma-separated, e.g. checks_passed,agent.cost_usd), in any condition',
      collect,
    )
    .action(async (a: string, b: string, options: CompareFlags) => {
      // Checked before anything is read: a misspelt measure must not pass a CI silently.
      const gated = options.failIfWorse ? gateMeasures(options.failIfWorse) : [];
      const comparison = await compareCampaigns(a, b);
      // Before anything is printed: a measure neither side has is the user's mistake.
      const found = gated.length > 0 ? worseOn(comparison, gated) : undefined;
      if (options.out === undefined) {
        const rendered = renderCompare(comparison);
        process.stdout.write(options.format === 'md' ? rendered.md : rendered[options.format]);
        if (found) process.exitCode = gate(found, gated);
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
      if (found) process.exitCode = gate(found, gated);
    });
}

interface CompareFlags {
  out?: string;
  format: Format;
  failIfWorse?: string[];
}
