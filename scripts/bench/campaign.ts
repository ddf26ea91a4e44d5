/**
 * Campaign overhead: 20 runs of a scripted agent that does nothing, with
 * --jobs 1 and --jobs 4, against 20 bare `docker run --rm <image> true` in the
 * same session.
 *
 * Goals: per-run cost with --jobs 1 within 1.5x of the bare container;
 * --jobs 4 at least 1.6x the throughput of --jobs 1.
 *
 *   node --import tsx scripts/bench/campaign.ts [runs]
 */
import { execa } from 'execa';
import { runCampaign } from '../../src/campaign/index.js';
import { ensureTestImage } from '../../src/image/index.js';
import { connectDocker, pingDocker } from '../../src/runtime/index.js';
import { makeToyWorkspace } from '../../test/support/toy.js';
import { rm } from 'node:fs/promises';

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

async function campaign(jobs: number, prepareAhead?: number): Promise<number> {
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
    return ms;
  } finally {
    await rm(ws.root, { recursive: true, force: true });
  }
}

// Warm up: image layers, page cache, the codebase cache.
await bare();
await campaign(1);

const bareMs = await bare();
const sequential = await campaign(1, 0);
const jobs1 = await campaign(1);
const jobs4 = await campaign(4);
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
  `ratio to bare ${(perJobs1 / perBare).toFixed(2)} (goal <= 1.5)`,
);
row(
  'evalrig run --jobs 4',
  jobs4,
  `throughput x${(jobs1 / jobs4).toFixed(2)} of --jobs 1 (goal >= 1.6), x${(sequential / jobs4).toFixed(2)} of the sequential one`,
);
