/**
 * A campaign taken away: its runs, its model calls or its stops as one table, in CSV (RFC
 * 4180, agent text guarded against formula injection) or JSON lines, for a notebook or a
 * spreadsheet. Read through the campaign folder's one rule (no link followed, every file
 * checked against its schema); the columns are documented in docs/export.md.
 *
 * ```ts
 * const leftOut: LeftOut[] = [];
 * const table = await campaignTable('out/pr-workflow', 'calls', leftOut);
 * await writeTable(table, 'csv', process.stdout);
 * ```
 */
export { csvCell, csvRecord, jsonLine, type Cell, type Row, type Table } from './cells.js';
export { campaignTable, ExportInputError, type LeftOut, type TableKind } from './tables.js';
export { writeTable, writeTableFile, type ExportFormat } from './write.js';
export {
  CHECK_PREFIX,
  MESSAGE_CHECK_PREFIX,
  RUN_COLUMNS,
  UNTRUSTED_RUN_COLUMNS,
} from './run-rows.js';
export {
  CALL_COLUMNS,
  STOP_COLUMNS,
  UNTRUSTED_CALL_COLUMNS,
  UNTRUSTED_STOP_COLUMNS,
} from './stop-rows.js';
