/**
 * Reading an export back as a notebook would (Python's csv module, a JSON parser), and
 * comparing its rows with what benchmark.json says of the same runs.
 */
import { expect } from 'chai';
import { execa } from 'execa';
import type { BenchmarkFile } from '../../src/report/index.js';

export type Parsed = Record<string, string | number | boolean | null>;

const repoRoot = new URL('../..', import.meta.url).pathname;

/** `evalrig export` from the sources; its stdout, stderr and exit code. */
export function evalrigExport(args: readonly string[]) {
  return execa('node', ['--import', 'tsx', 'src/cli/main.ts', 'export', ...args], {
    cwd: repoRoot,
    reject: false,
  });
}

/** The rows Python's csv.DictReader reads (strict), each cell typed back: '' null, true/false, numbers. */
export async function pythonCsvRows(csv: string): Promise<Parsed[]> {
  const script =
    'import csv,json,sys; print(json.dumps(list(csv.DictReader(sys.stdin, strict=True))))';
  // newline='' is what the csv module asks for: CRLF and quoted line breaks kept as written.
  const read = await execa(
    'python3',
    ['-c', `import io,sys; sys.stdin = io.TextIOWrapper(sys.stdin.buffer, newline=''); ${script}`],
    { input: csv },
  );
  const rows = JSON.parse(read.stdout) as Record<string, string>[];
  return rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typed(v)])));
}

function typed(v: string): string | number | boolean | null {
  if (v === '') return null;
  if (v === 'true' || v === 'false') return v === 'true';
  return /^-?\d+(\.\d+)?(e[+-]?\d+)?$/iu.test(v) ? Number(v) : v;
}

/** The rows of a JSON-lines export, each line parsed on its own. */
export function jsonlRows(text: string): Parsed[] {
  // A file ends with a line break; stdout as execa hands it over has lost its last one.
  return text
    .replace(/\n$/u, '')
    .split('\n')
    .map((l) => JSON.parse(l) as Parsed);
}

const RATES = [
  'checks_passed',
  'pr_draft_at_hand_over',
  'pr_described',
  'pr_marked_ready',
] as const;
const NUMBERS = ['files_changed', 'lines_added', 'turns', 'duration_s'] as const;
const AGENT = {
  tokens_input: 'tokens_in',
  tokens_output: 'tokens_out',
  cost_usd: 'cost_usd',
  tool_calls: 'tool_calls',
  model_requests: 'model_requests',
} as const;

const close = (a: number | null, b: number | null, what: string) =>
  a === null || b === null ? expect(a, what).to.equal(b) : expect(a, what).to.be.closeTo(b, 1e-9);

/**
 * Each condition's figures recomputed from the run rows, as benchmark.json states them: the
 * runs, the status counts, each rate's successes and n, each number's mean and n, and the
 * agent's means and the account's sums (tokens, cost, requests).
 */
export function expectRunsMatchBenchmark(rows: readonly Parsed[], bench: BenchmarkFile): void {
  for (const c of bench.conditions) {
    const mine = rows.filter((r) => r.condition === c.condition);
    expect(mine.length, c.condition).to.equal(c.runs);
    for (const status of Object.keys(c.status) as (keyof typeof c.status)[])
      expect(mine.filter((r) => r.status === status).length, status).to.equal(c.status[status]);
    // As benchmark.json measures: a run the harness failed, or one the budget cut, says nothing;
    // a failure while the agent had control counts against its condition.
    const measured = mine.filter(
      (r) => r.failure_class !== 'harness' && r.limit !== 'campaign_cost',
    );
    for (const r of mine)
      expect(r.measured, `${c.condition} measured`).to.equal(measured.includes(r));
    expect(measured.length, `${c.condition} measured`).to.equal(c.measured);
    for (const m of RATES) {
      const seen = measured.map((r) => r[m]).filter((v) => v !== null && v !== undefined);
      expect(seen.length, `${c.condition} ${m} n`).to.equal(c.measures[m].n);
      expect(seen.filter((v) => v === true).length, m).to.equal(c.measures[m].successes);
    }
    for (const m of NUMBERS) {
      const seen = measured.map((r) => r[m]).filter((v): v is number => typeof v === 'number');
      expect(seen.length, `${c.condition} ${m} n`).to.equal(c.measures[m].n);
      close(
        seen.length ? seen.reduce((a, b) => a + b, 0) / seen.length : null,
        c.measures[m].mean,
        m,
      );
    }
    for (const [column, measure] of Object.entries(AGENT)) {
      const seen = measured.map((r) => r[column]).filter((v): v is number => typeof v === 'number');
      const stated = c.agent[measure];
      expect(seen.length, `${c.condition} ${column} n`).to.equal(stated.n);
      close(
        seen.length ? seen.reduce((a, b) => a + b, 0) / seen.length : null,
        stated.mean,
        column,
      );
    }
    const account = bench.account?.agent.find((a) => a.condition === c.condition);
    if (!account) continue;
    const sum = (col: string) =>
      mine.reduce((n, r) => n + (typeof r[col] === 'number' ? (r[col] as number) : 0), 0);
    expect(sum('tokens_input'), 'account input').to.equal(account.tokens.input);
    expect(sum('tokens_output'), 'account output').to.equal(account.tokens.output);
    expect(sum('model_requests'), 'account requests').to.equal(account.model_requests);
    close(sum('cost_usd'), account.cost_usd, 'account cost');
  }
}
