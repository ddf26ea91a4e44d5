/**
 * Several engines at once: a no-op campaign of 40 runs on one engine with
 * `--jobs 2`, against the same campaign over two engines with `--jobs 2`
 * each. Both are driven as remote engines (archives in, deltas out), so the
 * only difference is the number of engines; the machine's engine with its
 * folders mounted is shown beside for reference. The busy fraction of the
 * machine's CPUs over each campaign comes from /proc/stat: on one machine the
 * two engines share its cores, so the speed-up is capped by what the first
 * campaign left idle.
 *
 * Needs root (it starts a second dockerd of its own, test/support/second-engine).
 *
 *   node --import tsx scripts/bench/engines.ts [runs]
 */
import { readFileSync } from 'node:fs';
import { runCampaign } from '../../src/campaign/index.js';
import { ensureTestImage } from '../../src/image/index.js';
import { connectDocker, pingDocker } from '../../src/runtime/index.js';
import { RemoteDockerProvider, engineAddress, type EngineChoice } from '../../src/sandbox/index.js';
import { startSecondEngine } from '../../test/support/second-engine.js';
import { makeToyWorkspace } from '../../test/support/toy.js';

const RUNS = Number(process.argv[2] ?? 40);
const quiet = { write: () => true } as unknown as NodeJS.WriteStream;

/** CPU time counters of the whole machine: [busy, total] in ticks. */
function cpuTicks(): [number, number] {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
  const f = line.trim().split(/\s+/u).slice(1).map(Number);
  const total = f.reduce((a, b) => a + b, 0);
  const idle = (f[3] ?? 0) + (f[4] ?? 0);
  return [total - idle, total];
}

const client = connectDocker();
await pingDocker(client);
const image = await ensureTestImage(client, {});
const engine = await startSecondEngine();
try {
  // Shipped once before anything is timed (a campaign does it at its start).
  await new RemoteDockerProvider({ client: engine.client() }).ensureImage(
    { tag: image.tag, id: image.id },
    new RemoteDockerProvider({ client }),
  );
  const local = engineAddress('unix:///var/run/docker.sock');
  const second = engineAddress(engine.host);

  async function campaign(
    engines: readonly EngineChoice[] | undefined,
  ): Promise<{ s: number; busy: number }> {
    const ws = await makeToyWorkspace({
      scripts: { noop: { turns: [{ actions: [] }] } },
      set: { evals: [{ id: 'noop', prompt: 'nothing', runs: RUNS }] },
    });
    try {
      const [b0, t0] = cpuTicks();
      const start = performance.now();
      const r = await runCampaign({
        evalSetFile: ws.evalSetFile,
        outDir: ws.outDir,
        jobs: 2,
        engines,
        log: quiet,
      });
      const s = (performance.now() - start) / 1000;
      const [b1, t1] = cpuTicks();
      if (r.played !== RUNS || r.failed !== 0)
        throw new Error(`played ${r.played}, failed ${r.failed}`);
      return { s, busy: (b1 - b0) / (t1 - t0) };
    } finally {
      await ws.cleanup();
    }
  }

  const configs: Array<[string, readonly EngineChoice[] | undefined]> = [
    ['one engine, mounted (today)', undefined],
    ['one engine, remote', [{ address: local, mounts: false }]],
    [
      'two engines, remote',
      [
        { address: local, mounts: false },
        { address: second, mounts: false },
      ],
    ],
  ];
  const results: Record<string, { s: number; busy: number }> = {};
  for (const [name, engines] of configs) {
    results[name] = await campaign(engines);
    const r = results[name]!;
    console.log(
      `${name.padEnd(28)} ${RUNS} runs in ${r.s.toFixed(1)} s (${(RUNS / r.s).toFixed(2)} runs/s), CPUs busy ${(r.busy * 100).toFixed(0)}%`,
    );
  }
  const one = results['one engine, remote']!;
  const two = results['two engines, remote']!;
  console.log(`throughput two engines / one engine (both remote): ${(one.s / two.s).toFixed(2)}x`);
  console.log(
    `ceiling on this machine (1 / busy fraction of one engine): ${(1 / one.busy).toFixed(2)}x`,
  );
} finally {
  await engine.stop();
}
