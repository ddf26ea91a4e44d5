import { expect } from 'chai';
import { execa } from 'execa';
import { csvCell, csvRecord, jsonLine } from '../../../src/export/index.js';

/** The records Python's csv module reads from `text` (the reader a notebook would use). */
async function pythonReads(text: string): Promise<string[][]> {
  const read = await execa(
    'python3',
    ['-c', 'import csv,json,sys; print(json.dumps(list(csv.reader(sys.stdin, strict=True))))'],
    { input: text },
  );
  return JSON.parse(read.stdout) as string[][];
}

describe('export: cells as RFC 4180 and JSON lines write them', () => {
  it('quotes a cell holding a quote, a comma or a line break, doubling quotes', () => {
    expect(csvCell('plain')).to.equal('plain');
    expect(csvCell('a,b')).to.equal('"a,b"');
    expect(csvCell('say "hi"')).to.equal('"say ""hi"""');
    expect(csvCell('two\nlines')).to.equal('"two\nlines"');
    expect(csvCell('cr\rhere')).to.equal('"cr\rhere"');
  });

  it('writes numbers and booleans as JSON does, null as an empty cell', () => {
    expect([csvCell(-1.5), csvCell(0), csvCell(true), csvCell(false), csvCell(null)]).to.deep.equal(
      ['-1.5', '0', 'true', 'false', ''],
    );
  });

  it("leads text a spreadsheet would read as a formula with ', numbers left alone", () => {
    for (const start of ['=', '+', '-', '@', '\t'])
      expect(csvCell(`${start}cmd`, true), JSON.stringify(start)).to.equal(`'${start}cmd`);
    // A carriage return is also a line break: guarded, then quoted.
    expect(csvCell('\rcmd', true)).to.equal('"\'\rcmd"');
    expect(csvCell('=HYPERLINK("http://x")', true)).to.equal('"\'=HYPERLINK(""http://x"")"');
    expect(csvCell('-rf', true)).to.equal("'-rf");
    expect(csvCell('@SUM(A1)', true)).to.equal("'@SUM(A1)");
    expect(csvCell('a=b', true)).to.equal('a=b');
    expect(csvCell(-3, true)).to.equal('-3');
    // Text evalrig or the eval set wrote is kept as it is: a package name starts with @.
    expect(csvCell('@anthropic-ai/claude-code')).to.equal('@anthropic-ai/claude-code');
    expect(csvCell(-3)).to.equal('-3');
  });

  it("round-trips through Python's csv module, every hostile cell intact but for the guard", async () => {
    const columns = ['eval', 'message', 'n', 'ok', 'none'];
    const hostile = [
      'quotes "inside" and, commas',
      'line one\r\nline two\nthree',
      '=1+1',
      '+SUM(A1:A9)',
      '-2+3',
      '@cmd',
      '\tTAB',
      '',
      'ünïcode ✓',
    ];
    const guarded = new Set(['message']);
    const text =
      csvRecord(columns, Object.fromEntries(columns.map((c) => [c, c]))) +
      hostile
        .map((m, i) =>
          csvRecord(columns, { eval: `e${i}`, message: m, n: -i, ok: i % 2 === 0 }, guarded),
        )
        .join('');
    const records = await pythonReads(text);
    expect(records[0]).to.deep.equal(columns);
    expect(records.slice(1).map((r) => r[1])).to.deep.equal(
      hostile.map((m) => (/^[=+\-@\t\r]/u.test(m) ? `'${m}` : m)),
    );
    expect(records.slice(1).map((r) => [r[2], r[3], r[4]])).to.deep.equal(
      hostile.map((_, i) => [String(-i), String(i % 2 === 0), '']),
    );
  });

  it('writes every column of a JSON line in order, null where the row has none', () => {
    const line = jsonLine(['b', 'a', 'c'], { a: 1, b: '=x' });
    expect(line.endsWith('\n')).to.equal(true);
    expect(Object.entries(JSON.parse(line) as object)).to.deep.equal([
      ['b', '=x'],
      ['a', 1],
      ['c', null],
    ]);
  });
});
