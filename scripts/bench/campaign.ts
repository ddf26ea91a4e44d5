/**
 * Campaign overhead: 20 runs of a scripted agent that does nothing, with
 * --jobs 1 and --jobs 4, against 20 bare `docker run --rm <image> true` in the
 * same session.
 *
 * Goals: per-run cost with --jobs 1 within 1.3x of the bare container;
 * --jobs 4 at least 1.6x the throughput of --jobs 1.
 *
 * Then the per-phase profile of the --jobs 1 series: the median of each run
 * phase over its runs (from each run.json's `phases`) and the campaign's own
 * phases once, so the gap to the bare container shows where it goes.
 *
 *   node --import tsx scripts/bench/campaign.ts [runs]
 */
import { execa } from 'execa';
import { runCampaign } from '../../src/campaign/index.js';
import { ensureTestImage } from '../../src/image/index.js';
import { connectDocker, pingDocker } from '../../src/runtime/index.js';
import { makeToyWorkspace } from '../../test/support/toy.js';
import { readFile, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { PhaseTiming, RunRecord } from '../../src/artifacts/index.js';

const RUNS = Number(process.argv[2] ?? 20);
const quiet = { write: () => true } as unknown as NodeJS.WriteStream;

const client = connectDocker();
await pingDocker(client);
const image = await ensureTestImage(client, {});

async function bare(): Promise<number> {
  const t = performance.now();
  for (let i = 0; i < RUNS; i++) {
    await execa('docker', ['run', '--rm', '--network', 'none', image.tag, 'true']);
  }
  return performance.now() - t;
}

interface Series {
  readonly ms: number;
  /** The campaign's own phases. */
  readonly phases: readonly PhaseTiming[];
  /** Each run's phases, from its run.json. */
  readonly runs: readonly (readonly PhaseTiming[])[];
}

async function campaign(jobs: number, prepareAhead?: number): Promise<Series> {
  const ws = await makeToyWorkspace({
    scripts: { noop: { turns: [{ actions: [] }] } },
    set: { evals: [{ id: 'noop', prompt: 'nothing', runs: RUNS }] },
  });
  try {
    const t = performance.now();
    const r = await runCampaign({
      evalSetFile: ws.evalSetFile,
      outDir: ws.outDir,
      jobs,
      prepareAhead,
      client,
      log: quiet,
    });
    const ms = performance.now() - t;
    if (r.played !== RUNS || r.failed !== 0)
      throw new Error(`campaign played ${r.played}, failed ${r.failed}`);
    const runs: PhaseTiming[][] = [];
    const runsDir = path.join(ws.outDir, 'runs');
    for (const rel of await readdir(runsDir, { recursive: true })) {
      if (path.basename(rel) !== 'run.json') continue;
      const record = JSON.parse(await readFile(path.join(runsDir, rel), 'utf8')) as RunRecord;
      runs.push([...(record.phases ?? [])]);
    }
    return { ms, phases: r.phases ?? [], runs };
  } finally {
    await rm(ws.root, { recursive: true, force: true });
  }
}

/** Each phase's median over the runs, in the order phases first appear. */
function medians(runs: readonly (readonly PhaseTiming[])[]): PhaseTiming[] {
  const by = new Map<string, number[]>();
  for (const phases of runs) {
    // A phase met twice in a run (collect after each turn) counts as its sum.
    const sums = new Map<string, number>();
    for (const p of phases) sums.set(p.name, (sums.get(p.name) ?? 0) + p.ms);
    for (const [name, ms] of sums) by.set(name, [...(by.get(name) ?? []), ms]);
  }
  return [...by].map(([name, all]) => {
    const sorted = [...all].sort((a, b) => a - b);
    return { name, ms: sorted[Math.floor(sorted.length / 2)]! };
  });
}

// Warm up: image layers, page cache, the codebase cache.
await bare();
await campaign(1);

const bareMs = await bare();
const sequential = (await campaign(1, 0)).ms;
const series1 = await campaign(1);
const jobs1 = series1.ms;
const jobs4 = (await campaign(4)).ms;
const perBare = bareMs / RUNS;
const perJobs1 = jobs1 / RUNS;
const row = (name: string, ms: number, note: string) =>
  console.log(`${name.padEnd(44)} ${(ms / RUNS).toFixed(0).padStart(5)} ms/run  ${note}`);
console.log(`runs per series: ${RUNS}`);
row('bare docker run --rm --network none true', bareMs, '');
row(
  'evalrig run --jobs 1, nothing prepared ahead',
  sequential,
  `ratio to bare ${(sequential / bareMs).toFixed(2)}`,
);
row(
  'evalrig run --jobs 1',
  jobs1,
  `ratio to bare ${(perJobs1 / perBare).toFixed(2)} (goal <= 1.3)`,
);
row(
  'evalrig run --jobs 4',
  jobs4,
  `throughput x${(jobs1 / jobs4).toFixed(2)} of --jobs 1 (goal >= 1.6), x${(sequential / jobs4).toFixed(2)} of the sequential one`,
);
const ms = (n: number) => `${n.toFixed(0).padStart(6)} ms`;
console.log(
  `\nprofile of evalrig run --jobs 1 (prepare and start run ahead, while the run before plays)`,
);
for (const p of medians(series1.runs)) console.log(`  run ${p.name.padEnd(20)} ${ms(p.ms)} median`);
for (const p of series1.phases) {
  const note =
    p.name === 'play' ? `${ms(p.ms / RUNS)} per run` : `${ms(p.ms / RUNS)} per run amortised`;
  console.log(`  campaign ${p.name.padEnd(15)} ${ms(p.ms)} once  ${note}`);
}
console.log(`  bare docker run           ${ms(perBare)} per run`);
