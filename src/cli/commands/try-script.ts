import type { Command } from 'commander';
import { notACampaign, readConditions } from '../../campaign-folder/index.js';
import { InputError } from '../../errors/index.js';
import { loadModelScript } from '../../model-stand-in/index.js';
import { dryRun, recordedSessions, tally, type DryRunRow } from '../../script-dry-run/index.js';

interface TryFlags {
  judge?: boolean;
  only?: string;
}

const HOW: Record<DryRunRow['how'], string> = {
  when: 'by when',
  in_order: 'in order',
  fallback: 'catch-all',
  none: 'none fits',
  unkept: 'not kept',
};

/** The rows as aligned columns: a person reads them beside the script. */
export function formatRows(rows: readonly DryRunRow[]): string {
  const cells = [
    ['session', 'request', 'response', 'how', 'what'],
    ...rows.map((r) => [
      r.session,
      String(r.seq),
      r.response === null ? '-' : `#${r.response}`,
      HOW[r.how],
      r.summary,
    ]),
  ];
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((c) => c[i]!.length)));
  return cells
    .map((c) =>
      c
        .map((v, i) => (i === c.length - 1 ? v : v.padEnd(widths[i]!)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** One line of what the rows add up to. */
export function formatTally(rows: readonly DryRunRow[]): string {
  const t = tally(rows);
  return `${rows.length} request(s): ${t.when} by "when", ${t.in_order} in order, ${t.fallback} from a catch-all (a response without "when" while none with one fitted), ${t.none} with no response that fits (the stand-in answers 400), ${t.unkept} whose body was not kept`;
}

/**
 * `evalrig try-script <script> <out> [--judge] [--only TEXT]`: which response of a model script
 * each request the campaign recorded would get, each run (or judge question) played from the
 * script's start as the stand-in plays it. Runs nothing and writes nothing.
 */
export function registerTryScript(program: Command): void {
  program
    .command('try-script')
    .description(
      "dry-run a model script against a campaign's recorded requests: which response each would get, and whether by its when, in order or from a catch-all (runs nothing)",
    )
    .argument('<script>', 'the model script (JSON, as an eval set names it)')
    .argument('<out>', 'the campaign folder whose recorded requests to play')
    .option('--judge', "the judge's questions (gradings, blind comparisons), not the agents' calls")
    .option(
      '--only <text>',
      'only the runs whose folder (runs/<eval>/<condition>/run-NN) holds this',
    )
    .action(async (scriptPath: string, out: string, flags: TryFlags) => {
      const read = await readConditions(out);
      if (read.status !== 'ok') throw new InputError(notACampaign(read, out));
      const script = await loadModelScript(scriptPath);
      const sessions = await recordedSessions(out, flags.judge ? 'judge' : 'agent', flags.only);
      if (sessions.length === 0) {
        const what = flags.judge ? 'judge question' : "agent's model call";
        throw new InputError(
          `${out}: no recorded ${what}${flags.only ? ` in a folder holding "${flags.only}"` : ''}: nothing to try the script against`,
        );
      }
      const rows = dryRun(script, sessions);
      process.stdout.write(`${formatRows(rows)}\n`);
      process.stderr.write(`evalrig try-script: ${formatTally(rows)}\n`);
    });
}
