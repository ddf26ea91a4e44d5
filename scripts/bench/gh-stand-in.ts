/**
 * Benchmark of the gh stand-in's cost per call: the median wall time of
 * `gh pr list --json number,title,isDraft` in a repository whose state holds 50 pull requests,
 * against `node -e 0` (Node's own start) in the same run, interleaved. Goal: ratio <= 1.3.
 *
 * Run: node --import tsx scripts/bench/gh-stand-in.ts [iterations=30]
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bundleStandIn } from '../bundle-stand-ins.mjs';

const iterations = Number(process.argv[2] ?? 30);
const tmp = mkdtempSync(path.join(tmpdir(), 'gh-stand-in-bench-'));

function git(cwd: string, ...args: string[]): void {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
}

function timeOne(cmd: string, args: string[], cwd: string): number {
  const start = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${r.stderr}`);
  return ms;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

try {
  // The bundle, built as scripts/bundle-stand-ins.mjs builds it, outside this ESM package.
  const gh = path.join(tmp, 'bin', 'gh');
  await bundleStandIn('gh', gh);

  const remote = path.join(tmp, 'remote/acme/toy.git');
  const work = path.join(tmp, 'work');
  mkdirSync(path.dirname(remote), { recursive: true });
  git(tmp, 'init', '-q', '--bare', '-b', 'main', remote);
  git(tmp, 'init', '-q', '-b', 'main', work);
  git(work, 'remote', 'add', 'origin', remote);
  const record = path.join(work, '.git', 'gh-stand-in');
  mkdirSync(record, { recursive: true });
  const prs = Array.from({ length: 50 }, (_, i) => ({
    number: i + 1,
    title: `Pull request ${i + 1}`,
    body: `Description ${i + 1}\n`.repeat(20),
    head: `branch-${i + 1}`,
    base: 'main',
    draft: i % 2 === 0,
  }));
  writeFileSync(path.join(record, 'state.json'), JSON.stringify({ pull_requests: prs }));

  const ghArgs = [gh, 'pr', 'list', '--json', 'number,title,isDraft'];
  const nodeArgs = ['-e', '0'];
  for (let i = 0; i < 3; i++) {
    timeOne(process.execPath, ghArgs, work); // warm the page cache
    timeOne(process.execPath, nodeArgs, work);
  }
  const ghTimes: number[] = [];
  const nodeTimes: number[] = [];
  for (let i = 0; i < iterations; i++) {
    ghTimes.push(timeOne(process.execPath, ghArgs, work));
    nodeTimes.push(timeOne(process.execPath, nodeArgs, work));
  }
  const g = median(ghTimes);
  const n = median(nodeTimes);
  console.log(`iterations: ${iterations} each, interleaved (node ${process.version})`);
  console.log(`gh pr list --json number,title,isDraft (50 PRs): median ${g.toFixed(1)} ms`);
  console.log(`node -e 0:                                      median ${n.toFixed(1)} ms`);
  console.log(`ratio: ${(g / n).toFixed(2)} (goal <= 1.3)`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
