/**
 * Tasks mined from minimist's history (`evalrig tasks from-history`, the built CLI, --max 6,
 * --jobs 2: every candidate validated in two runs of a container each) against the same
 * validation done by hand in one container of the same image (scripts/bench/mining-by-hand.sh:
 * clone, put the tests in, run them, apply, run again; twice per task), in the same trials
 * (interleaved). The environment image is built before the clock starts (it is cached).
 *
 *   npm run build && node --import tsx scripts/bench/mining.ts [trials]
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { cloneShared, sharedRepo } from '../../test/support/shared-repos.js';

const run = promisify(execFile);
const TRIALS = Number(process.argv[2] ?? 3);
const bare = sharedRepo('minimist');
if (!bare) throw new Error('no ../shared/repos/minimist.git (or EVALRIG_SHARED_REPOS)');
const scratch = await mkdtemp(path.join(tmpdir(), 'bench-mining-'));
const repo = await cloneShared(bare, path.join(scratch, 'minimist'));
const cli = path.resolve('dist/src/cli/main.js');
const env = { ...process.env, EVALRIG_CACHE_DIR: path.join(scratch, 'cache') };

async function mined(n: number): Promise<{ ms: number; report: string }> {
  const out = path.join(scratch, `mined-${n}`, 'evals.json');
  const args = [
    ...[cli, 'tasks', 'from-history', repo, '--max', '6', '--jobs', '2'],
    ...['--test-command', 'tape {tests}', '--environment', 'examples/from-history/node-tape'],
    ...['--out', out],
  ];
  const started = performance.now();
  await run(process.execPath, args, { env, maxBuffer: 64 * 1024 * 1024 });
  return {
    ms: performance.now() - started,
    report: path.join(path.dirname(out), 'tasks-report.json'),
  };
}

/** The same tasks by hand, in one container of the validation's image. */
async function byHand(image: string, tasks: string): Promise<number> {
  const started = performance.now();
  const script = path.resolve('scripts/bench/mining-by-hand.sh');
  await run('docker', [
    ...['run', '--rm', '-i', '--network', 'none', '-u', '1000:1000'],
    ...['-v', `${repo}:/repo:ro`, '-v', `${script}:/by-hand.sh:ro`, image],
    ...['sh', '-c', `printf '%s' "$0" | sh /by-hand.sh /repo tape`, tasks],
  ]);
  return performance.now() - started;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

try {
  // Warm: the environment image built, the codebase cached.
  const warm = await mined(0);
  const report = JSON.parse(await readFile(warm.report, 'utf8')) as {
    tasks: { id: string; commit: string; parent: string }[];
    validation_campaign: string;
  };
  const first = report.tasks[0]!.id;
  const record = JSON.parse(
    await readFile(
      path.join(report.validation_campaign, 'runs', first, 'validate', 'run-01', 'run.json'),
      'utf8',
    ),
  ) as { image: { tag: string } };
  const tasks = report.tasks.map((t) => `${t.commit} ${t.parent}\n`).join('');
  const evalrig: number[] = [];
  const hand: number[] = [];
  for (let i = 1; i <= TRIALS; i++) {
    evalrig.push((await mined(i)).ms);
    hand.push(await byHand(record.image.tag, tasks));
  }
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const m = median(evalrig);
  const h = median(hand);
  console.log(
    `load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log(
    `${report.tasks.length} candidates, each validated twice, ${TRIALS} trials (medians):`,
  );
  console.log(
    `  by hand, one container:        ${s(h)} (${s(h / report.tasks.length)} a candidate)`,
  );
  console.log(
    `  evalrig tasks from-history:    ${s(m)} (${s(m / report.tasks.length)} a candidate), ${(m / h).toFixed(2)}x`,
  );
} finally {
  await rm(scratch, { recursive: true, force: true });
}
