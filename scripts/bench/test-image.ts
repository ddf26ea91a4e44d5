// Benchmark: the cost of making sure of the test image when it already exists
// (the path every `evalrig run` takes), against a bare engine ping in the same
// run, and the CLI's `image build` (reuse) against `doctor` (same start-up, one
// ping). Prints medians and ratios.
//
//   node --import tsx scripts/bench/test-image.ts [iterations=30]
import { execa } from 'execa';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureTestImage } from '../../src/image/index.js';
import { connectDocker, pingDocker } from '../../src/runtime/index.js';

const iterations = Number(process.argv[2] ?? 30);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const cli = path.join(root, 'dist', 'src', 'cli', 'main.js');

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

const client = connectDocker();
await pingDocker(client);
const image = await ensureTestImage(client); // builds once when missing
console.log(`image ${image.tag} (${image.built ? 'built now' : 'already there'})`);

const reuse: number[] = [];
const ping: number[] = [];
const cliBuild: number[] = [];
const cliDoctor: number[] = [];
for (let i = 0; i < iterations; i++) {
  // Interleaved, so both sides see the same machine load.
  reuse.push(
    await time(async () => {
      const r = await ensureTestImage(client);
      if (r.built) throw new Error('rebuilt: the benchmark expects reuse');
    }),
  );
  ping.push(await time(() => client.docker.ping()));
  cliBuild.push(await time(() => execa('node', [cli, 'image', 'build'])));
  cliDoctor.push(await time(() => execa('node', [cli, 'doctor'])));
}

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
console.log(`iterations: ${iterations}`);
console.log(
  `in process: ensureTestImage (reuse) ${fmt(median(reuse))} vs engine ping ${fmt(median(ping))}: ratio ${(median(reuse) / median(ping)).toFixed(2)}`,
);
console.log(
  `CLI: image build (reuse) ${fmt(median(cliBuild))} vs doctor ${fmt(median(cliDoctor))}: ratio ${(median(cliBuild) / median(cliDoctor)).toFixed(2)}`,
);
