import type { Command } from 'commander';
import { InputError } from '../../errors/index.js';
import {
  campaignTable,
  writeTable,
  writeTableFile,
  type ExportFormat,
  type LeftOut,
  type TableKind,
} from '../../export/index.js';

interface ExportFlags {
  format: string;
  runs?: boolean;
  calls?: boolean;
  stops?: boolean;
  out?: string;
}

const FORMATS: readonly ExportFormat[] = ['csv', 'jsonl'];

/** The one table the flags ask for (`--runs` when none is given); two at once are refused. */
export function tableKindOf(flags: Pick<ExportFlags, TableKind>): TableKind {
  const asked = (['runs', 'calls', 'stops'] as const).filter((k) => flags[k]);
  if (asked.length > 1)
    throw new InputError(
      `give one of --runs, --calls, --stops (one table per export), got ${asked.map((k) => `--${k}`).join(' and ')}`,
    );
  return asked[0] ?? 'runs';
}

/** `--format`: csv or jsonl. */
export function formatOf(value: string): ExportFormat {
  if ((FORMATS as readonly string[]).includes(value)) return value as ExportFormat;
  throw new InputError(`--format must be csv or jsonl, got "${value}"`);
}

/**
 * `evalrig export <out> --format csv|jsonl [--runs|--calls|--stops] [--out FILE]`: one row per
 * run, per model call or per stop, to stdout or a file (written whole or not at all). Runs
 * whose files are broken are left out, each said on stderr.
 */
export function registerExport(program: Command): void {
  program
    .command('export')
    .description(
      'one table of a campaign folder for a notebook or a spreadsheet: a row per run (default), per model call or per stop, as CSV or JSON lines (runs nothing)',
    )
    .argument('<out>', 'the campaign folder (the --out of evalrig run)')
    .requiredOption('--format <format>', 'csv (RFC 4180, a header line) or jsonl')
    .option('--runs', 'one row per run: status, agent, tokens, cost, every measure and check')
    .option('--calls', "one row per model call the run's gateway relayed")
    .option('--stops', 'one row per stop (the end of a turn)')
    .option('--out <file>', 'write into this file (default: stdout)')
    .action(async (out: string, flags: ExportFlags) => {
      const format = formatOf(flags.format);
      const kind = tableKindOf(flags);
      const leftOut: LeftOut[] = [];
      const table = await campaignTable(out, kind, leftOut);
      const rows = flags.out
        ? await writeTableFile(table, format, flags.out)
        : await writeTable(table, format, process.stdout);
      for (const l of leftOut)
        process.stderr.write(`evalrig: ${l.run} left out, its files are broken: ${l.problem}\n`);
      if (flags.out) process.stderr.write(`evalrig export: ${rows} ${kind} rows in ${flags.out}\n`);
    });
}
