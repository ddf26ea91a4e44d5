/**
 * Benchmark of the reaper's start, a Docker engine's and a cluster's: the shipped program
 * (dist/reaper/reaper.cjs, the cluster's sweep in kubernetes-api.cjs beside it) against the
 * same program with the cluster's sweep bundled inside (one 6 MB file, its modules evaluated
 * only for a cluster, but read and compiled by every reaper), each paired with `node -e 0`,
 * run after run in a random order. What is timed is Node's start and the bundle's load: the
 * program is handed a config it refuses at its first line. A cluster's reaper also loads its
 * sweep at its start (kubernetes-api.cjs, client-node inside): timed the same way.
 * Goal: a Docker engine's reaper at most 1.3x `node -e 0` (it loads Node's http, https and
 * child_process), whatever the cluster's sweep weighs.
 *
 *   node --import tsx scripts/bench/reaper-start.ts [--pairs 20]
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bundleReaper } from '../bundle-stand-ins.mjs';

const flag = process.argv.indexOf('--pairs');
const pairs = flag > 0 ? Number(process.argv[flag + 1]) : 20;

/** Milliseconds `node <args>` takes, from spawn to exit; `status` is the exit wanted. */
function timed(args: readonly string[], status = 0): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = performance.now() - t0;
  if (r.status !== status)
    throw new Error(`node ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

interface Case {
  readonly name: string;
  readonly args: readonly string[];
  readonly status: number;
}

function measure(c: Case): { ratio: number; ms: number; baseMs: number } {
  const ratios: number[] = [];
  const mine: number[] = [];
  const base: number[] = [];
  timed(c.args, c.status); // warm the file cache once, on both sides
  timed(['-e', '0']);
  for (let i = 0; i < pairs; i++) {
    const first = Math.random() < 0.5;
    const b0 = first ? timed(['-e', '0']) : 0;
    const m = timed(c.args, c.status);
    const b = first ? b0 : timed(['-e', '0']);
    mine.push(m);
    base.push(b);
    ratios.push(m / b);
  }
  return { ratio: median(ratios), ms: median(mine), baseMs: median(base) };
}

const dir = await mkdtemp(path.join(tmpdir(), 'evalrig-bench-reaper-'));
try {
  const apart = await bundleReaper(path.join(dir, 'apart', 'reaper.cjs'));
  const together = await bundleReaper(path.join(dir, 'together', 'reaper.cjs'), { together: true });
  // Refused at its first line ("names no labels"): exit 1 once the bundle is loaded.
  const CASES: readonly Case[] = [
    { name: "a Docker engine's reaper, shipped (sweep apart)", args: [apart, '{}'], status: 1 },
    { name: "a Docker engine's reaper, sweep inside", args: [together, '{}'], status: 1 },
    {
      name: "a cluster's sweep loaded (kubernetes-api.cjs)",
      args: [path.join(dir, 'apart', 'kubernetes-api.cjs')],
      status: 0,
    },
  ];
  for (const c of CASES) {
    const r = measure(c);
    console.log(
      `${c.name}: ${r.ratio.toFixed(2)}x node -e 0 (median of ${pairs} pairs; ${r.ms.toFixed(0)} vs ${r.baseMs.toFixed(0)} ms)`,
    );
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
