import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { csvRecord, jsonLine, type Table } from './cells.js';

/** How a table is written: CSV (RFC 4180, a header line first) or JSON lines. */
export type ExportFormat = 'csv' | 'jsonl';

/** Writes `table` to `out` in `format`, waiting whenever the stream asks to. Returns the rows. */
export async function writeTable(
  table: Table,
  format: ExportFormat,
  out: Writable,
): Promise<number> {
  const put = async (text: string): Promise<void> => {
    if (!out.write(text)) await once(out, 'drain');
  };
  if (format === 'csv')
    await put(csvRecord(table.columns, Object.fromEntries(table.columns.map((c) => [c, c]))));
  let n = 0;
  for await (const row of table.rows) {
    await put(
      format === 'csv'
        ? csvRecord(table.columns, row, table.untrusted)
        : jsonLine(table.columns, row),
    );
    n++;
  }
  return n;
}

/**
 * Writes `table` into `file` whole or not at all: into a file beside it first, renamed over
 * `file` once complete, so a failure halfway leaves what was there before.
 */
export async function writeTableFile(
  table: Table,
  format: ExportFormat,
  file: string,
): Promise<number> {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  const out = createWriteStream(temp, { flags: 'wx', mode: 0o644 });
  try {
    await once(out, 'open');
    const n = await writeTable(table, format, out);
    out.end();
    await once(out, 'finish');
    await rename(temp, file);
    return n;
  } catch (error) {
    out.destroy();
    await rm(temp, { force: true });
    throw error;
  }
}
