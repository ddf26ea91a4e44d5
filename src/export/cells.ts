/**
 * One exported row: its cells by column, each a plain value a spreadsheet or a data frame
 * reads as it is (no nested object).
 */
export type Cell = string | number | boolean | null;
export type Row = Readonly<Record<string, Cell>>;

/** What a table is: its columns in order, and its rows (each may leave a column out: null). */
export interface Table {
  readonly columns: readonly string[];
  /** The columns whose text the agent (or its model) wrote: guarded in CSV (see csvCell). */
  readonly untrusted: ReadonlySet<string>;
  readonly rows: AsyncIterable<Row>;
}

/**
 * The characters a spreadsheet reads as the start of a formula (OWASP's list): a cell of
 * agent-written text that starts with one could run when the file is opened.
 */
const FORMULA_START = /^[=+\-@\t\r]/u;

/**
 * A cell as RFC 4180 writes it: quoted when it holds a quote, a comma or a line break (quotes
 * doubled), and, when it is `untrusted` text that a spreadsheet would read as a formula, led by
 * a `'`. Numbers and booleans are written as JSON writes them; null is an empty cell. Text
 * evalrig or the eval set wrote is left as it is (a package name starts with @).
 *
 * @example
 * csvCell('=HYPERLINK("x")', true); // '"\'=HYPERLINK(""x"")"'
 * csvCell(-1); // '-1'
 */
export function csvCell(value: Cell, untrusted = false): string {
  if (value === null) return '';
  if (typeof value !== 'string') return String(value);
  const text = untrusted && FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/u.test(text) ? `"${text.replace(/"/gu, '""')}"` : text;
}

/**
 * One CSV record (CRLF-terminated, as RFC 4180 says), its cells in `columns`' order, those of
 * the `untrusted` columns guarded.
 */
export function csvRecord(
  columns: readonly string[],
  row: Row,
  untrusted: ReadonlySet<string> = new Set(),
): string {
  return `${columns.map((c) => csvCell(row[c] ?? null, untrusted.has(c))).join(',')}\r\n`;
}

/** One JSON line: every column, in order, null where the row has none. */
export function jsonLine(columns: readonly string[], row: Row): string {
  const ordered: Record<string, Cell> = {};
  for (const c of columns) ordered[c] = row[c] ?? null;
  return `${JSON.stringify(ordered)}\n`;
}
