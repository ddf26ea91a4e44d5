/**
 * Benchmark of `evalrig report`: aggregate 10,000 synthetic stored runs
 * (2 evals x 2 conditions x 2,500, two stops each; an adapter agent's
 * record in nine runs of ten, a command agent's output in the rest; a judge's grading.json of
 * three expectations in nine runs of ten, and a blind comparison per eval and run number) and
 * compare with 1,000
 * runs in the same session. Goal: under 3 s for 10,000 runs; memory flat
 * (peak RSS at 10,000 close to peak RSS at 1,000).
 *
 *   node --import tsx scripts/bench/report.ts [--keep]
 *
 * Each measurement runs in a fresh Node process so its peak RSS is its own.
 * Baseline in the same run: reading and parsing every run.json with nothing
 * else (the floor any report pays).
 */
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import type { ComparisonFile, GradingFile, RunRecord } from '../../src/artifacts/index.js';
import { GOOD_RUN, writeCampaign, type RunPlan } from '../../test/integration/report/fixture.js';

const root = path.resolve(import.meta.dirname, '../..');
const keep = process.argv.includes('--keep');

/** Varied runs so every accumulator and the timelines have work to do. */
function plan(_evalId: string, condition: string, i: number): RunPlan {
  const skill = condition === 'with_skill';
  return {
    ...GOOD_RUN,
    status: i % 97 === 0 ? 'timed_out' : i % 211 === 0 ? 'failed' : 'completed',
    stops: i % 97 === 0 ? 1 : i % 211 === 0 ? 0 : 2,
    draft: skill || i % 3 !== 0,
    described: skill ? i % 10 !== 0 : i % 2 === 0,
    refreshed: skill ? i % 7 !== 0 : i % 4 === 0,
    marksReady: !skill && i % 9 === 0,
    notPlayed: i % 13 === 0 ? 1 : 0,
    checksPass: i % 5 !== 0,
    filesChanged: i % 6,
    durationMs: 20_000 + (i % 50) * 1000,
    ...(i % 10 === 0
      ? {}
      : {
          agent: {
            tokensIn: 1000 + (i % 17) * 100,
            tokensOut: 200 + (i % 11) * 10,
            cacheRead: i % 7 === 0 ? 0 : 5000,
            cacheWrite: 300,
            costUsd: i % 23 === 0 ? null : 0.01 + (i % 5) * 0.002,
            toolCalls: 3 + (i % 6),
            toolCallsFailed: i % 8 === 0 ? 1 : 0,
            modelRequests: 2 + (i % 4),
          },
        }),
  };
}

async function generate(runsPer: number): Promise<{ dir: string; seconds: number }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `evalrig-bench-report-${runsPer * 4}-`));
  const t0 = performance.now();
  await writeCampaign(dir, {
    evals: ['add-feature', 'fix-bug'],
    conditions: ['without_skill', 'with_skill'],
    baseline: 'without_skill',
    runs: runsPer,
    plan,
  });
  await writeGradings(dir);
  return { dir, seconds: (performance.now() - t0) / 1000 };
}

const HASH = 'a'.repeat(64);
const EXPECTATIONS = ['It adds the feature.', 'It says so.', 'It leaves a draft.'];

/** A judge's grading.json beside nine run.json of ten, and a blind comparison per run number. */
async function writeGradings(dir: string): Promise<void> {
  const runs = path.join(dir, 'runs');
  const judge = { model: 'stand-in-judge', source: 'script' as const };
  const rubric = { version: 'grading-rubric@1', sha256: HASH };
  const call = {
    time: '2026-01-01T00:00:00Z',
    status: 200,
    latency_ms: 1,
    input_tokens: 900,
    output_tokens: 60,
  };
  let i = 0;
  for (const e of (await readdir(runs)).sort()) {
    for (const c of (await readdir(path.join(runs, e))).sort()) {
      for (const r of (await readdir(path.join(runs, e, c))).sort()) {
        const runDir = path.join(runs, e, c, r);
        const record = JSON.parse(
          await readFile(path.join(runDir, 'run.json'), 'utf8'),
        ) as RunRecord;
        if (i++ % 10 === 9 || record.status === 'failed') continue;
        const passed = EXPECTATIONS.map((_, k) => (i + k) % 3 !== 0);
        const grading: GradingFile = {
          schema: 'evalrig/grading@1',
          campaign: record.campaign,
          eval: record.eval,
          condition: record.condition,
          run: record.run,
          status: 'graded',
          judge,
          rubric,
          inputs_sha256: HASH,
          cache_key: HASH,
          expectations: EXPECTATIONS.map((x, k) => ({
            expectation: x,
            passed: passed[k]!,
            evidence: 'quoted',
          })),
          expectations_passed: passed.filter(Boolean).length / 3,
          all_passed: passed.every(Boolean),
          calls: [call],
          graded_at: '2026-01-01T00:00:00Z',
        };
        await writeFile(path.join(runDir, 'grading.json'), JSON.stringify(grading));
        if (c !== 'with_skill') continue;
        const cmp = path.join(dir, 'comparisons', 'without_skill.vs.with_skill', e, r);
        await mkdir(cmp, { recursive: true });
        const comparison: ComparisonFile = {
          schema: 'evalrig/comparison@1',
          campaign: record.campaign,
          eval: record.eval,
          run: record.run,
          conditions: ['without_skill', 'with_skill'],
          seed: HASH,
          order: ['with_skill', 'without_skill'],
          status: 'judged',
          winner: i % 4 === 0 ? 'tie' : i % 3 === 0 ? 'without_skill' : 'with_skill',
          reason: 'a reason',
          judge,
          rubric,
          inputs_sha256: HASH,
          cache_key: HASH,
          calls: [call],
          judged_at: '2026-01-01T00:00:00Z',
        };
        await writeFile(path.join(cmp, 'comparison.json'), JSON.stringify(comparison));
      }
    }
  }
}

// Prints the child's wall time and peak RSS (KiB) on exit, whatever it ran.
const PROBE = `data:text/javascript,${encodeURIComponent(
  "const t0=performance.now();process.on('exit',()=>process.stderr.write('\\nBENCH '+JSON.stringify({ms:performance.now()-t0,maxRssKiB:process.resourceUsage().maxRSS})+'\\n'))",
)}`;

interface Figures {
  /** Wall time of the whole process (start-up included). */
  readonly ms: number;
  /** Time inside writeReport, when the child measured it. */
  readonly inMs: number | null;
  readonly maxRssKiB: number;
}

async function child(nodeArgs: string[]): Promise<Figures> {
  const t0 = performance.now();
  const result = await execa('node', ['--import', PROBE, ...nodeArgs], {
    cwd: root,
    reject: false,
  });
  const wall = performance.now() - t0;
  if (result.exitCode !== 0) throw new Error(`${nodeArgs.join(' ')} failed:\n${result.stderr}`);
  const stderr = String(result.stderr);
  const line = /BENCH (\{.*\})/.exec(stderr)?.[1];
  if (!line) throw new Error(`no figures from ${nodeArgs.join(' ')}`);
  const inner = JSON.parse(line) as { maxRssKiB: number };
  const inproc = /INPROC ([\d.]+)/.exec(stderr)?.[1];
  return { ms: wall, inMs: inproc ? Number(inproc) : null, maxRssKiB: inner.maxRssKiB };
}

const writeReportIn = (dir: string): string[] => [
  '--import',
  'tsx',
  '--input-type=module',
  '-e',
  `const { writeReport } = await import(${JSON.stringify(path.join(root, 'src/report/index.ts'))});
   const t0 = performance.now(); await writeReport(${JSON.stringify(dir)});
   process.stderr.write('\\nINPROC ' + (performance.now() - t0) + '\\n');`,
];

const readOnlyIn = (dir: string): string[] => [
  '--input-type=module',
  '-e',
  `const { readdir, readFile } = await import('node:fs/promises'); const p = await import('node:path');
   const t0 = performance.now(); const runs = p.join(${JSON.stringify(dir)}, 'runs');
   for (const e of (await readdir(runs)).sort()) for (const c of (await readdir(p.join(runs, e))).sort())
     for (const r of (await readdir(p.join(runs, e, c))).sort()) JSON.parse(await readFile(p.join(runs, e, c, r, 'run.json'), 'utf8'));
   process.stderr.write('\\nINPROC ' + (performance.now() - t0) + '\\n');`,
];

/** The CLI as users run it: compiled JavaScript (built aside, in node_modules/.cache, so dist/ is left alone). */
async function buildCli(): Promise<string | null> {
  const out = path.join(root, 'node_modules/.cache/evalrig-bench-report');
  const r = await execa(
    'npx',
    ['tsc', '-p', 'tsconfig.json', '--outDir', out, '--sourceMap', 'false'],
    {
      cwd: root,
      reject: false,
    },
  );
  const main = path.join(out, 'src/cli/main.js');
  try {
    await readFile(main);
    return main;
  } catch {
    console.log(`(compiled CLI not measured: tsc emitted nothing)\n${r.stdout}`);
    return null;
  }
}

function best(list: Figures[]): Figures {
  const inner = list.map((f) => f.inMs).filter((v): v is number => v !== null);
  return {
    ms: Math.min(...list.map((f) => f.ms)),
    inMs: inner.length ? Math.min(...inner) : null,
    maxRssKiB: Math.max(...list.map((f) => f.maxRssKiB)),
  };
}

async function measure(dir: string, runs: number, builtCli: string | null) {
  const repeat = async (args: string[]) =>
    best([await child(args), await child(args), await child(args)]);
  return {
    runs,
    report: await repeat(writeReportIn(dir)),
    cliTsx: await repeat(['--import', 'tsx', 'src/cli/main.ts', 'report', dir]),
    cliBuilt: builtCli ? await repeat([builtCli, 'report', dir]) : null,
    floor: await repeat(readOnlyIn(dir)),
  };
}

const sec = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
const mib = (f: Figures): string => `${(f.maxRssKiB / 1024).toFixed(0)} MiB`;
const ratio = (a: number, b: number): string => (a / b).toFixed(2);

const builtCli = await buildCli();
const small = await generate(250);
const large = await generate(2500);
console.log(
  `generated 1,000 runs in ${small.seconds.toFixed(1)} s, 10,000 in ${large.seconds.toFixed(1)} s`,
);
try {
  const s = await measure(small.dir, 1000, builtCli);
  const l = await measure(large.dir, 10_000, builtCli);
  for (const m of [s, l]) {
    console.log(`\n${m.runs.toLocaleString('en')} runs (best of 3 each; RSS: the highest)`);
    console.log(
      `  writeReport:                 ${sec(m.report.inMs!)} inside, process ${sec(m.report.ms)}, peak RSS ${mib(m.report)}`,
    );
    if (m.cliBuilt)
      console.log(
        `  evalrig report (compiled):   ${sec(m.cliBuilt.ms)} whole process, peak RSS ${mib(m.cliBuilt)}`,
      );
    console.log(
      `  evalrig report (tsx):        ${sec(m.cliTsx.ms)} whole process, peak RSS ${mib(m.cliTsx)}`,
    );
    console.log(
      `  baseline, read+parse only:   ${sec(m.floor.inMs!)} inside, peak RSS ${mib(m.floor)}`,
    );
  }
  console.log(
    `\n10,000 vs 1,000 runs: writeReport time x${ratio(l.report.inMs!, s.report.inMs!)}, peak RSS x${ratio(l.report.maxRssKiB, s.report.maxRssKiB)}`,
  );
  console.log(
    `writeReport vs read+parse only, 10,000 runs: x${ratio(l.report.inMs!, l.floor.inMs!)}`,
  );
  const cli = l.cliBuilt ?? l.cliTsx;
  const met = l.report.inMs! < 3000 && cli.ms < 3000;
  console.log(
    `goal, 10,000 runs under 3 s: ${met ? 'met' : 'NOT met'} (writeReport ${sec(l.report.inMs!)}, evalrig report ${sec(cli.ms)})`,
  );
} finally {
  if (keep) console.log(`kept: ${small.dir} ${large.dir}`);
  else
    await Promise.all([small.dir, large.dir].map((d) => rm(d, { recursive: true, force: true })));
}
