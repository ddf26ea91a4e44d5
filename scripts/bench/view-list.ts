/**
 * Benchmark of the viewer's run list on the server (`/_api/runs`: every run's row, each run
 * read through the campaign folder's one rule, its schema and its stops' sha256, with its
 * grading and review), against baselines in the same run:
 *
 * - the same listing of 100 runs, scaled by 100: is a row's cost flat in the number of runs?
 * - reading the same 10,000 run.json files raw (readFileSync and JSON.parse, no check): the
 *   floor of any listing.
 *
 * Wall and CPU time both: on a loaded machine the CPU time is the steadier figure.
 *
 *   node --import tsx scripts/bench/view-list.ts [rounds=3]
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { listRuns } from '../../src/campaign-folder/index.js';
import { writeReport } from '../../src/report/index.js';
import { runRows } from '../../src/view/rows.js';
import { largeCampaign, writeCampaign } from '../../test/integration/report/fixture.js';

const rounds = Number(process.argv[2] ?? 3);

async function campaign(runsPer: number): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `evalrig-bench-view-list-${runsPer * 4}-`));
  await writeCampaign(dir, largeCampaign(runsPer));
  await writeReport(dir);
  return dir;
}

interface Timing {
  readonly rows: number;
  readonly wallMs: number;
  readonly cpuMs: number;
}

async function timed(f: () => Promise<number>): Promise<Timing> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const rows = await f();
  const cpu = process.cpuUsage(cpu0);
  return { rows, wallMs: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1000 };
}

async function listing(dir: string): Promise<number> {
  let n = 0;
  for await (const row of runRows(dir)) if (row.run > 0) n++;
  return n;
}

async function raw(dir: string): Promise<number> {
  let n = 0;
  for await (const entry of listRuns(dir)) {
    JSON.parse(readFileSync(path.join(entry.dir, 'run.json'), 'utf8'));
    n++;
  }
  return n;
}

/** The best of `rounds` (the least disturbed by the machine's other work). */
async function best(f: () => Promise<Timing>): Promise<Timing> {
  let out: Timing | undefined;
  for (let i = 0; i < rounds; i++) {
    const t = await f();
    if (!out || t.cpuMs < out.cpuMs) out = t;
  }
  return out!;
}

const small = await campaign(25);
const large = await campaign(2500);
try {
  const hundred = await best(() => timed(() => listing(small)));
  const tenThousand = await best(() => timed(() => listing(large)));
  const floor = await best(() => timed(() => raw(large)));
  const ms = (x: number) => `${(x / 1000).toFixed(2)} s`;
  for (const [what, t] of [
    ['listing 100 runs', hundred],
    ['listing 10,000 runs', tenThousand],
    ['reading 10,000 run.json raw', floor],
  ] as const) {
    console.log(`${what}: ${t.rows} rows, ${ms(t.wallMs)} wall, ${ms(t.cpuMs)} CPU`);
  }
  const x = (a: number, b: number) => `x${(a / b).toFixed(2)}`;
  console.log(
    `10,000 rows against 100 rows scaled by 100: wall ${x(tenThousand.wallMs, hundred.wallMs * 100)}, CPU ${x(tenThousand.cpuMs, hundred.cpuMs * 100)}`,
  );
  console.log(
    `10,000 rows against their run.json read raw: wall ${x(tenThousand.wallMs, floor.wallMs)}, CPU ${x(tenThousand.cpuMs, floor.cpuMs)}`,
  );
} finally {
  await Promise.all([small, large].map((d) => rm(d, { recursive: true, force: true })));
}
