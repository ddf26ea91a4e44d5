/**
 * Campaign overhead: runs of a scripted agent that does nothing, with
 * --jobs 1 and --jobs 4, against as many bare `docker run --rm <image> true`.
 * The series are interleaved in rounds (bare, --jobs 1, nothing prepared
 * ahead, --jobs 4): each round's ratios pair series measured minutes apart at
 * most, and the figures are the medians over the rounds, each with the load.
 *
 * Goals: per-run cost with --jobs 1 within 1.3x of the bare container;
 * --jobs 4 at least 1.6x the throughput of --jobs 1.
 *
 * A fifth series, --jobs 1 with `true` as the agent's command, is the harness
 * alone: the scripted agent is a Node program whose own start in the container
 * is most of its turn, which no harness can take away.
 *
 * Then the per-phase profile of the --jobs 1 series: the median of each run
 * phase over its runs (from each run.json's `phases`) and the campaign's own
 * phases, so the gap to the bare container shows where it goes.
 *
 *   node --import tsx scripts/bench/campaign.ts [runs per series] [rounds]
 */
import { execa } from 'execa';
import { runCampaign } from '../../src/campaign/index.js';
import { ensureTestImage } from '../../src/image/index.js';
import { connectDocker, pingDocker } from '../../src/runtime/index.js';
import { makeToyWorkspace } from '../../test/support/toy.js';
import { readFile, readdir, rm } from 'node:fs/promises';
import { loadavg } from 'node:os';
import path from 'node:path';
import type { PhaseTiming, RunRecord } from '../../src/artifacts/index.js';

const RUNS = Number(process.argv[2] ?? 20);
const ROUNDS = Number(process.argv[3] ?? 3);
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

async function campaign(
  jobs: number,
  prepareAhead?: number,
  command?: readonly string[],
): Promise<Series> {
  const ws = await makeToyWorkspace({
    scripts: { noop: { turns: [{ actions: [] }] } },
    set: {
      evals: [{ id: 'noop', prompt: 'nothing', runs: RUNS }],
      ...(command ? { agent: { command } } : {}),
    },
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

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/** One round: each series once, back to back, so its ratios share the machine's load. */
interface Round {
  readonly load: number;
  readonly bare: number;
  readonly sequential: number;
  readonly jobs1: Series;
  readonly jobs4: number;
  /** --jobs 1 with `true` as the agent: the harness alone. */
  readonly harness: Series;
}

async function round(): Promise<Round> {
  const load = loadavg()[0]!;
  const bareMs = await bare();
  const jobs1 = await campaign(1);
  const sequential = (await campaign(1, 0)).ms;
  const jobs4 = (await campaign(4)).ms;
  const harness = await campaign(1, undefined, ['true']);
  return { load: (load + loadavg()[0]!) / 2, bare: bareMs, sequential, jobs1, jobs4, harness };
}

// Warm up: image layers, page cache, the codebase cache.
await bare();
await campaign(1);

const rounds: Round[] = [];
for (let i = 0; i < ROUNDS; i++) rounds.push(await round());

const perRun = (ms: number) => `${(ms / RUNS).toFixed(0).padStart(5)} ms/run`;
console.log(`runs per series: ${RUNS}, rounds: ${ROUNDS}`);
for (const [i, r] of rounds.entries()) {
  console.log(
    `round ${i + 1} (load ${r.load.toFixed(1)}): bare ${perRun(r.bare)}, --jobs 1 ${perRun(r.jobs1.ms)} ` +
      `(${(r.jobs1.ms / r.bare).toFixed(2)}x), nothing ahead ${perRun(r.sequential)} ` +
      `(${(r.sequential / r.bare).toFixed(2)}x), --jobs 4 ${perRun(r.jobs4)} (x${(r.jobs1.ms / r.jobs4).toFixed(2)}), ` +
      `agent true ${perRun(r.harness.ms)} (${(r.harness.ms / r.bare).toFixed(2)}x)`,
  );
}
const med = (f: (r: Round) => number) => median(rounds.map(f));
const row = (name: string, ms: number, note: string) =>
  console.log(`${name.padEnd(44)} ${perRun(ms)}  ${note}`);
console.log(`\nmedians over the rounds (load ${med((r) => r.load).toFixed(1)}):`);
row(
  'bare docker run --rm --network none true',
  med((r) => r.bare),
  '',
);
row(
  'evalrig run --jobs 1, nothing prepared ahead',
  med((r) => r.sequential),
  `ratio to bare ${med((r) => r.sequential / r.bare).toFixed(2)}`,
);
row(
  'evalrig run --jobs 1',
  med((r) => r.jobs1.ms),
  `ratio to bare ${med((r) => r.jobs1.ms / r.bare).toFixed(2)} (goal <= 1.3)`,
);
row(
  'evalrig run --jobs 1, agent command true',
  med((r) => r.harness.ms),
  `ratio to bare ${med((r) => r.harness.ms / r.bare).toFixed(2)} (the harness alone)`,
);
row(
  'evalrig run --jobs 4',
  med((r) => r.jobs4),
  `throughput x${med((r) => r.jobs1.ms / r.jobs4).toFixed(2)} of --jobs 1 (goal >= 1.6), x${med((r) => r.sequential / r.jobs4).toFixed(2)} of the sequential one`,
);
const ms = (n: number) => `${n.toFixed(0).padStart(6)} ms`;
console.log(
  `\nprofile of evalrig run --jobs 1, every round (prepare and start run ahead, while the run before plays)`,
);
for (const p of medians(rounds.flatMap((r) => r.jobs1.runs)))
  console.log(`  run ${p.name.padEnd(20)} ${ms(p.ms)} median`);
for (const p of medians(rounds.map((r) => r.jobs1.phases))) {
  const note =
    p.name === 'play' ? `${ms(p.ms / RUNS)} per run` : `${ms(p.ms / RUNS)} per run amortised`;
  console.log(`  campaign ${p.name.padEnd(15)} ${ms(p.ms)} median  ${note}`);
}
console.log(`  bare docker run           ${ms(med((r) => r.bare) / RUNS)} per run`);
console.log(`\nprofile of evalrig run --jobs 1 with the agent command true`);
for (const p of medians(rounds.flatMap((r) => r.harness.runs)))
  console.log(`  run ${p.name.padEnd(20)} ${ms(p.ms)} median`);
