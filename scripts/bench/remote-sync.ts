/**
 * A remote engine's transfers: shipping a 50,000-file work tree (checkout and
 * `.git`) into a sandbox on an engine that cannot see the host's disk, and a
 * 3-file change back, against `git clone --local` of the same repository on
 * the engine's own disk (inside a sandbox there). A stop's transfer must be
 * proportional to what changed, not to the tree.
 *
 * Needs root (it starts a second dockerd of its own, test/support/second-engine).
 *
 *   node --import tsx scripts/bench/remote-sync.ts [rounds]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { connectDocker } from '../../src/runtime/index.js';
import { RemoteDockerProvider, type Sandbox } from '../../src/sandbox/index.js';
import { startSecondEngine } from '../../test/support/second-engine.js';
import { benchFixture } from './provision-fixture.js';

const ROUNDS = Number(process.argv[2] ?? 3);
const IMAGE = process.env.EVALRIG_BASE_IMAGE ?? 'evalrig-base:bookworm';
const labels = { 'evalrig.campaign': `bench-remote-sync-${process.pid}` };
const AGENT = { uid: 1000, gid: 1000 };

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (t: number): string => `${t.toFixed(0)} ms`;

const fixture = await benchFixture('wide');
const dir = await mkdtemp(path.join(tmpdir(), 'evalrig-bench-remote-'));
const work = path.join(dir, 'work');
await execa('git', ['clone', '-q', fixture.bare, work]);
const engine = await startSecondEngine();
try {
  const provider = new RemoteDockerProvider({ client: engine.client(), name: 'second' });
  const first = new RemoteDockerProvider({ client: connectDocker(), name: 'first' });
  const id = (await connectDocker().docker.getImage(IMAGE).inspect()).Id;
  await provider.ensureImage({ tag: IMAGE, id }, first);
  const spec = { image: IMAGE, user: '65534:65534', execUser: '1000:1000', labels };

  const ship: number[] = [];
  const clone: number[] = [];
  const idle: number[] = [];
  const change: number[] = [];
  let treeBytes = 0;
  let changeBytes = 0;
  for (let round = 0; round < ROUNDS; round++) {
    // Baseline: the same repository already on the engine's disk, cloned there.
    const local: Sandbox = await provider.start(spec);
    try {
      await local.copyIn(fixture.bare, '/src/repo.git', AGENT);
      const r = await local.exec([
        'sh',
        '-c',
        's=$(date +%s%N); git clone -q --local /src/repo.git /tmp/clone; e=$(date +%s%N); echo $(( (e - s) / 1000000 ))',
      ]);
      if (r.exitCode !== 0) throw new Error(r.stderr);
      clone.push(Number(r.stdout.trim()));
    } finally {
      await local.remove();
    }

    const s = await provider.start(spec);
    try {
      let t = performance.now();
      await s.copyIn(work, '/work/repo', AGENT);
      ship.push(performance.now() - t);
      const du = await s.exec(['du', '-sb', '/work/repo'], { user: '0:0' });
      treeBytes = Number(du.stdout.split('\t')[0]);
      // The host copy the syncs keep up to date (the host's clone is that copy here).
      t = performance.now();
      const none = await s.syncOut('/work/repo', work);
      idle.push(performance.now() - t);
      if (none.changed + none.removed !== 0)
        throw new Error(`an idle sync moved ${JSON.stringify(none)}`);
      await s.exec([
        'sh',
        '-c',
        'cd /work/repo && for f in $(find . -path ./.git -prune -o -type f -print | head -3); do echo changed >> "$f"; done',
      ]);
      t = performance.now();
      const stats = await s.syncOut('/work/repo', work);
      change.push(performance.now() - t);
      changeBytes = stats.bytes;
      if (stats.changed !== 3) throw new Error(`a 3-file change synced ${JSON.stringify(stats)}`);
      await execa('git', ['-C', work, 'checkout', '-q', '--', '.']);
    } finally {
      await s.remove();
    }
  }
  console.log(`fixture: ${fixture.description}; ${ROUNDS} rounds, medians`);
  console.log(`ship the work tree in (one archive, owners in its headers): ${ms(median(ship))}`);
  console.log(`git clone --local on the engine's own disk:                ${ms(median(clone))}`);
  console.log(`ratio ship / clone: ${(median(ship) / median(clone)).toFixed(2)}x`);
  console.log(`sync back, nothing changed (listing + compare):           ${ms(median(idle))}`);
  console.log(`sync back, 3 files changed:                                ${ms(median(change))}`);
  console.log(
    `bytes of the 3-file change: ${changeBytes} of a ${treeBytes}-byte tree (${((changeBytes / treeBytes) * 100).toFixed(4)}%)`,
  );
} finally {
  await connectDocker().docker.ping();
  await new RemoteDockerProvider({ client: engine.client() }).reap(labels).catch(() => 0);
  await engine.stop();
  await rm(dir, { recursive: true, force: true });
}
