/**
 * Benchmark of the CLI's start: `evalrig --version` and `evalrig validate`
 * on the demo eval set, and `evalrig --help`, each paired with `node -e 0` (the
 * floor any Node program pays), run after run, in turn. Goals: `--version` and
 * `--help` at most 1.5x, `validate` at most 2.5x (the median of the pairs' ratios).
 *
 *   npm run build && node --import tsx scripts/bench/cli-start.ts [--pairs 20]
 *
 * The built CLI is measured (dist/src/cli/main.js), as `npm install -g`
 * users run it. Each pair runs its two commands back to back in a random
 * order, so a machine busy for a moment weighs on both sides alike.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const main = path.join(root, 'dist/src/cli/main.js');
const flag = process.argv.indexOf('--pairs');
const pairs = flag > 0 ? Number(process.argv[flag + 1]) : 20;

interface Case {
  readonly name: string;
  readonly args: readonly string[];
  readonly goal: number;
}

const CASES: readonly Case[] = [
  { name: 'evalrig --version', args: [main, '--version'], goal: 1.5 },
  // The help lists every verb from their summaries, none of their files loaded.
  { name: 'evalrig --help', args: [main, '--help'], goal: 1.5 },
  {
    name: 'evalrig validate examples/pr-workflow/evals.json',
    args: [main, 'validate', 'examples/pr-workflow/evals.json'],
    goal: 2.5,
  },
];

/** Milliseconds `node <args>` takes, from spawn to exit; throws when it fails. */
function timed(args: readonly string[]): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

function measure(c: Case): { ratio: number; ms: number; baseMs: number } {
  const ratios: number[] = [];
  const mine: number[] = [];
  const base: number[] = [];
  timed(c.args); // warm the file cache once, on both sides
  timed(['-e', '0']);
  for (let i = 0; i < pairs; i++) {
    const first = Math.random() < 0.5;
    const b0 = first ? timed(['-e', '0']) : 0;
    const m = timed(c.args);
    const b = first ? b0 : timed(['-e', '0']);
    mine.push(m);
    base.push(b);
    ratios.push(m / b);
  }
  return { ratio: median(ratios), ms: median(mine), baseMs: median(base) };
}

if (!existsSync(main)) throw new Error(`${main} is missing: run npm run build first`);
let failed = false;
for (const c of CASES) {
  const r = measure(c);
  const ok = r.ratio <= c.goal;
  failed ||= !ok;
  console.log(
    `${c.name}: ${r.ratio.toFixed(2)}x node -e 0 (median of ${pairs} pairs; ${r.ms.toFixed(0)} vs ${r.baseMs.toFixed(0)} ms) goal <= ${c.goal}x ${ok ? 'met' : 'NOT met'}`,
  );
}
process.exitCode = failed ? 1 : 0;
