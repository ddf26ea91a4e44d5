/**
 * Benchmark of a resume with nothing to play: `evalrig run` again into a finished campaign
 * folder of the demo eval set (one run per condition, played once first), paired with
 * `node -e 0` run after run, in a random order. Goal: the median resume under 1.5 s (a
 * newcomer's resume took 8 s); the ratio to `node -e 0` is printed beside it.
 *
 *   npm run build && node --import tsx scripts/bench/resume-nothing.ts [--pairs 10]
 *
 * Needs the Docker engine and the test image (`evalrig image build`), as `evalrig run` does.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const main = path.join(root, 'dist/src/cli/main.js');
const flag = process.argv.indexOf('--pairs');
const pairs = flag > 0 ? Number(process.argv[flag + 1]) : 10;
const GOAL_MS = 1500;

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

if (!existsSync(main)) throw new Error(`${main} is missing: run npm run build first`);
const out = mkdtempSync(path.join(tmpdir(), 'evalrig-bench-resume-'));
try {
  const run = [main, 'run', 'examples/pr-workflow/evals.json', '--out', out, '--runs', '1'];
  timed(run); // plays the campaign once: every later run has nothing to play
  const resumes: number[] = [];
  const bases: number[] = [];
  for (let i = 0; i < pairs; i++) {
    const first = Math.random() < 0.5;
    if (first) bases.push(timed(['-e', '0']));
    resumes.push(timed(run));
    if (!first) bases.push(timed(['-e', '0']));
  }
  const ms = median(resumes);
  const ok = ms < GOAL_MS;
  console.log(
    `evalrig run (resume, nothing to play, 2 finished runs): ${ms.toFixed(0)} ms median of ${pairs} (${(ms / median(bases)).toFixed(1)}x node -e 0) goal < ${GOAL_MS} ms ${ok ? 'met' : 'NOT met'}`,
  );
  process.exitCode = ok ? 0 : 1;
} finally {
  rmSync(out, { recursive: true, force: true });
}
