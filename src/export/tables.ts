import {
  campaignFiles,
  notACampaign,
  reachedThroughNoLink,
  readConditions,
  readRunCalls,
  readRuns,
  type StoredRun,
} from '../campaign-folder/index.js';
import { InputError } from '../errors/index.js';
import type { Row, Table } from './cells.js';
import { runColumns, runRow, UNTRUSTED_RUN_COLUMNS } from './run-rows.js';
import {
  CALL_COLUMNS,
  STOP_COLUMNS,
  UNTRUSTED_CALL_COLUMNS,
  UNTRUSTED_STOP_COLUMNS,
  callRow,
  stopRow,
  turnOfCall,
} from './stop-rows.js';

/** What a table is made of: one row per run, per model call, or per stop (turn). */
export type TableKind = 'runs' | 'calls' | 'stops';

/** A run left out of the table, and why (its files are broken). */
export interface LeftOut {
  readonly run: string;
  readonly problem: string;
}

/** A campaign folder that is not one, or one whose runs are reached through a link. */
export class ExportInputError extends InputError {}

/**
 * The finished runs of the campaign in `outDir`, read and verified through the campaign
 * folder's one rule; a run whose files are broken is told to `leftOut`, an unfinished one
 * (no run.json yet) is skipped.
 */
async function* finishedRuns(outDir: string, leftOut: LeftOut[]): AsyncGenerator<StoredRun> {
  const conditions = await readConditions(outDir);
  if (conditions.status !== 'ok') throw new ExportInputError(notACampaign(conditions, outDir));
  // Run folders below are listed without following links; runs/ itself is checked here.
  if (!(await reachedThroughNoLink(outDir, campaignFiles(outDir).runs)))
    throw new ExportInputError(`${campaignFiles(outDir).runs} is a link: not evalrig's folder`);
  for await (const { entry, read } of readRuns(outDir)) {
    if (read.status === 'ok') yield read.value;
    else if (read.status === 'broken') leftOut.push({ run: entry.dir, problem: read.problem });
  }
}

async function* stopRows(outDir: string, leftOut: LeftOut[]): AsyncGenerator<Row> {
  for await (const run of finishedRuns(outDir, leftOut))
    for (const stop of run.stops) yield stopRow(run.record, stop);
}

async function* callRows(outDir: string, leftOut: LeftOut[]): AsyncGenerator<Row> {
  for await (const run of finishedRuns(outDir, leftOut)) {
    const calls = await readRunCalls(run.dir);
    if (calls.status === 'broken') {
      leftOut.push({ run: run.dir, problem: calls.problem });
      continue;
    }
    if (calls.status !== 'ok') continue;
    const turnOf = turnOfCall(run.stops);
    for (const call of calls.value) yield callRow(run.record, call, turnOf(call.seq));
  }
}

async function* listed(rows: readonly Row[]): AsyncGenerator<Row> {
  yield* rows;
}

/**
 * The table of `kind` for the campaign in `outDir`. Calls and stops stream (their columns are
 * fixed); runs are read first, since their columns are the measures and checks they have.
 * Runs left out are pushed to `leftOut` as the rows are read.
 *
 * @example
 * const leftOut: LeftOut[] = [];
 * const table = await campaignTable('out/pr-workflow', 'runs', leftOut);
 * for await (const row of table.rows) console.log(row.eval, row.status);
 */
export async function campaignTable(
  outDir: string,
  kind: TableKind,
  leftOut: LeftOut[],
): Promise<Table> {
  if (kind === 'stops')
    return {
      columns: STOP_COLUMNS,
      untrusted: UNTRUSTED_STOP_COLUMNS,
      rows: stopRows(outDir, leftOut),
    };
  if (kind === 'calls')
    return {
      columns: CALL_COLUMNS,
      untrusted: UNTRUSTED_CALL_COLUMNS,
      rows: callRows(outDir, leftOut),
    };
  const rows: Row[] = [];
  for await (const run of finishedRuns(outDir, leftOut)) rows.push(runRow(run.record));
  return { columns: runColumns(rows), untrusted: UNTRUSTED_RUN_COLUMNS, rows: listed(rows) };
}
