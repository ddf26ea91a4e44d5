/**
 * A run's PostgreSQL service (examples/services-postgres): how long evalrig
 * takes from asking for a sandbox with the service to the service being ready
 * (its run.json `ready_ms`: the service's container and the readiness check,
 * with the agent's container starting meanwhile), against a bare `docker run`
 * of the same image (the engine's default bridge) polled to readiness with the
 * same check, in the same trials (interleaved).
 *
 * A campaign reserves the start as the run's prepare phase begins: the run's
 * network and each container's place on it are made while the workspace is
 * prepared, so the start finds them made ("places made ahead"). A one-off
 * start makes them itself ("no reservation"): that line is also the whole
 * cost with nothing to overlap it. The sandbox alone (network none) is shown
 * beside. Prints the load average (the machine is shared: read the ratios with it).
 *
 * Last, what a user's campaign sees: each trial also plays the example as a user does
 * (`evalrig run examples/services-postgres --jobs 1`, the built CLI, its two runs) and reads
 * each run's `ready_ms` from run.json, against the same trial's bare `docker run`. Its first
 * run's places are made while its workspace is prepared, which can be quicker than the places,
 * so the first run may wait for them; the second run is prepared during the first.
 *
 *   npm run build && node --import tsx scripts/bench/services.ts [trials]
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { promisify } from 'node:util';
import path from 'node:path';
import { ensureTestImage } from '../../src/image/index.js';
import { loadEvalSet } from '../../src/config/index.js';
import { ensureEvalServices, serviceSpecsOf } from '../../src/campaign/services.js';
import { LABELS, connectDocker, pingDocker } from '../../src/runtime/index.js';
import { LocalDockerProvider } from '../../src/sandbox/index.js';

const TRIALS = Number(process.argv[2] ?? 8);
const quiet = { write: () => true } as unknown as NodeJS.WriteStream;
const labels = { [LABELS.campaign]: `bench-services-${process.pid}` };

const client = connectDocker();
await pingDocker(client);
const evalSet = await loadEvalSet(path.resolve('examples/services-postgres/evals.json'));
const services = await ensureEvalServices(client, evalSet, evalSet.evals, { log: quiet });
const [db] = [...services.values()][0]!;
const spec = serviceSpecsOf([db!])[0]!;
const image = await ensureTestImage(client, {});
const provider = new LocalDockerProvider(client);

/**
 * `docker run -d` of the service's image as plainly as it comes (the engine's
 * default bridge network, no limits), then its readiness command repeated in
 * one exec until it passes, as evalrig checks it.
 */
async function bare(networkMode = 'default', limited = false): Promise<number> {
  const started = performance.now();
  const l = spec.limits!;
  const container = await client.docker.createContainer({
    Image: spec.image,
    Labels: labels,
    HostConfig: {
      NetworkMode: networkMode,
      // The limits the eval set gives the service (its CPU share slows its start on a busy machine).
      ...(limited
        ? { Memory: l.memoryBytes, NanoCpus: Math.round(l.cpus! * 1e9), PidsLimit: l.pids }
        : {}),
    },
  });
  await container.start();
  try {
    const loop = `until (${spec.ready.command!}\n); do sleep 0.05; done`;
    const exec = await container.exec({
      Cmd: ['sh', '-c', loop],
      AttachStdout: true,
      AttachStderr: true,
    });
    const stream = await exec.start({ hijack: true, stdin: false });
    await new Promise((resolve) => {
      stream.on('end', resolve);
      stream.on('close', resolve);
      stream.resume();
    });
    return performance.now() - started;
  } finally {
    await container.remove({ force: true });
  }
}

/**
 * evalrig's start of a sandbox with the service: total, and the service's
 * readiness. `ahead`: reserved first and its places made before the clock
 * starts, as a campaign's prepare phase overlaps them.
 */
async function withService(ahead: boolean): Promise<{ total: number; ready: number }> {
  const sandboxSpec = { image: image.tag, labels, services: [spec] };
  const reservation = ahead ? provider.reserve(sandboxSpec) : undefined;
  await reservation?.made;
  const started = performance.now();
  const sandbox = await (reservation?.start(sandboxSpec) ?? provider.start(sandboxSpec));
  const total = performance.now() - started;
  await sandbox.remove();
  return { total, ready: sandbox.services![0]!.readyMs };
}

/** The same sandbox alone (network none): the start a run without services has. */
async function alone(): Promise<number> {
  const started = performance.now();
  const sandbox = await provider.start({ image: image.tag, labels });
  const ms = performance.now() - started;
  await sandbox.remove();
  return ms;
}

/**
 * The example played as a user plays it, through the built CLI: each run's
 * `ready_ms` as its run.json says, in run order.
 */
async function campaign(): Promise<number[]> {
  const out = await mkdtemp(path.join(tmpdir(), 'bench-services-campaign-'));
  try {
    const cli = path.resolve('dist/src/cli/main.js');
    await promisify(execFile)(process.execPath, [
      cli,
      'run',
      'examples/services-postgres/evals.json',
      '--out',
      out,
      '--no-report',
    ]);
    const runs = path.join(out, 'runs', 'low-stock');
    const readies: number[] = [];
    for (const condition of await readdir(runs)) {
      for (const run of (await readdir(path.join(runs, condition))).sort()) {
        const json = JSON.parse(
          await readFile(path.join(runs, condition, run, 'run.json'), 'utf8'),
        );
        readies.push(json.services[0].ready_ms);
      }
    }
    return readies;
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

const bares: number[] = [];
const nones: number[] = [];
const limiteds: number[] = [];
const ahead = { totals: [] as number[], readies: [] as number[] };
const inline = { totals: [] as number[], readies: [] as number[] };
const alones: number[] = [];
const firsts: number[] = [];
const laters: number[] = [];
try {
  await bare(); // warm: the image's layers in the page cache
  for (let i = 0; i < TRIALS; i++) {
    bares.push(await bare());
    nones.push(await bare('none'));
    limiteds.push(await bare('default', true));
    for (const [series, reserved] of [
      [ahead, true],
      [inline, false],
    ] as const) {
      const w = await withService(reserved);
      series.totals.push(w.total);
      series.readies.push(w.ready);
    }
    alones.push(await alone());
    const [first, ...rest] = await campaign();
    firsts.push(first!);
    laters.push(...rest);
  }
} finally {
  await provider.reap(labels);
}
const fmt = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
const ratio = (xs: number[]): string => (median(xs) / median(bares)).toFixed(2);
console.log(
  `trials: ${TRIALS} (medians), load average: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
console.log(`bare docker run of ${spec.image} to ready (default bridge): ${fmt(median(bares))}`);
console.log(`bare, network none:                             ${fmt(median(nones))}`);
console.log(`bare, with the service's limits:                ${fmt(median(limiteds))}`);
for (const [what, series] of [
  ['places made ahead (a campaign)', ahead],
  ['no reservation (places made in the start)', inline],
] as const) {
  console.log(`evalrig, ${what}:`);
  console.log(
    `  the service ready (readyMs, from the ask): ${fmt(median(series.readies))}  ${ratio(series.readies)}x of bare`,
  );
  console.log(
    `  sandbox + service, start returned:        ${fmt(median(series.totals))}  ${ratio(series.totals)}x of bare`,
  );
}
console.log(`evalrig: sandbox alone (network none):      ${fmt(median(alones))}`);
console.log(`a user's campaign of the example (--jobs 1, ready_ms in run.json):`);
console.log(`  its first run: ${fmt(median(firsts))}  ${ratio(firsts)}x of bare`);
console.log(`  later runs:    ${fmt(median(laters))}  ${ratio(laters)}x of bare`);
console.log(
  `  every run:     ${fmt(median([...firsts, ...laters]))}  ${ratio([...firsts, ...laters])}x of bare`,
);
