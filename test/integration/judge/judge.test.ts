/**
 * The judge in a real campaign: the scripted agent in real containers, the judge played by the
 * model stand-in through the real model gateway on the host.
 */
import { expect } from 'chai';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { execa } from 'execa';
import {
  assertArtifact,
  type ComparisonFile,
  type GradingFile,
} from '../../../src/artifacts/index.js';
import { gradeCampaignFolder } from '../../../src/campaign/index.js';
import { judgeFlightFiles } from '../../../src/campaign-folder/index.js';
import { readFlight } from '../../../src/flight/index.js';
import { blindOrder, GRADING_RUBRIC_RECORD } from '../../../src/judge/index.js';
import { writeReport, type BenchmarkFile } from '../../../src/report/index.js';
import { playCampaign, QUIET, readJson } from '../../support/campaign.js';
import { requireDocker } from '../../support/docker.js';
import {
  executionTurn,
  makeToyWorkspace,
  planningTurn,
  type ToyWorkspace,
} from '../../support/toy.js';

const GOOD = ['math.js exports multiply.', 'The plan is in a draft pull request.'];
const CHANGED = [...GOOD, 'The tests pass.'];
const PLAN_ONLY = ['PLAN.md holds the plan.'];
const EVALS = ['plan-then-execute', 'plan-only'] as const;
const CONDITIONS = ['without_skill', 'with_skill'] as const;
const RUNS = [1, 2] as const;

const grading = (expectations: readonly string[]) => ({
  content: [
    {
      text: JSON.stringify({
        expectations: expectations.map((e, i) => ({
          expectation: e,
          passed: i === 0,
          evidence: i === 0 ? '+exports.multiply' : 'not shown',
        })),
      }),
    },
  ],
  usage: { input_tokens: 900, output_tokens: 60 },
});

/**
 * The judge's script: each eval's answer by its id; plan-only's first answer is no JSON. With
 * `good` both lists, a question holding CHANGED's last expectation gets CHANGED's answer.
 */
function judgeScript(options: { planOnly: 'garbled' | 'valid'; good: readonly string[] | 'both' }) {
  const execute = ['<run-record>', 'eval: plan-then-execute'];
  return {
    responses: [
      ...(options.good === 'both'
        ? [
            { when: { contains: [...execute, CHANGED[2]!] }, ...grading(CHANGED) },
            { when: { contains: execute }, ...grading(GOOD) },
          ]
        : [{ when: { contains: execute }, ...grading(options.good) }]),
      options.planOnly === 'garbled'
        ? {
            when: { contains: ['<run-record>', 'eval: plan-only'] },
            content: [{ text: 'Looks great to me, every expectation is met!' }],
          }
        : { when: { contains: ['<run-record>', 'eval: plan-only'] }, ...grading(PLAN_ONLY) },
      {
        when: { contains: ['<state-a>'] },
        content: [{ text: '{"winner": "A", "reason": "A says more."}' }],
      },
    ],
  };
}

function runDir(out: string, e: string, c: string, n: number): string {
  return path.join(out, 'runs', e, c, `run-${String(n).padStart(2, '0')}`);
}

async function judgeCalls(out: string, e: string, c: string, n: number): Promise<number> {
  const text = await readFile(path.join(runDir(out, e, c, n), 'judge-calls.jsonl'), 'utf8');
  return text.trim().split('\n').length;
}

async function allGradings(out: string): Promise<GradingFile[]> {
  const found: GradingFile[] = [];
  for (const e of EVALS)
    for (const c of CONDITIONS)
      for (const n of RUNS) {
        const file = path.join(runDir(out, e, c, n), 'grading.json');
        const g = await readJson<GradingFile>(file);
        assertArtifact('grading', g, file);
        found.push(g);
      }
  return found;
}

describe('judge: expectations graded in a real campaign', function () {
  before(requireDocker);
  this.timeout(300_000);
  let ws: ToyWorkspace;
  let set: Record<string, unknown>;
  let campaign: string;
  const scriptFile = () => path.join(path.dirname(ws.evalSetFile), 'judge.json');
  const writeScript = (s: object) => writeFile(scriptFile(), JSON.stringify(s, null, 2));
  const writeSet = (s: Record<string, unknown>) =>
    writeFile(ws.evalSetFile, JSON.stringify(s, null, 2));

  before(async () => {
    ws = await makeToyWorkspace({
      scripts: {
        'plan-then-execute': { turns: [planningTurn([{ say: 'Plan opened.' }]), executionTurn()] },
        'plan-only': { turns: [planningTurn([{ say: 'The plan waits for you.' }])] },
      },
      files: { 'judge.json': JSON.stringify(judgeScript({ planOnly: 'garbled', good: GOOD })) },
      set: {
        conditions: { without_skill: {}, with_skill: {} },
        judge: { model: { script: 'judge.json' }, compare: ['without_skill', 'with_skill'] },
        evals: [
          {
            id: 'plan-then-execute',
            prompt: 'Plan, then add multiply.',
            runs: 2,
            turns: [{ message: 'Approved, go on.', phase: 'execution' }],
            expectations: GOOD,
          },
          { id: 'plan-only', prompt: 'Plan multiply.', runs: 2, expectations: PLAN_ONLY },
        ],
      },
    });
    set = await readJson(ws.evalSetFile);
    const result = await playCampaign(ws, { jobs: 2 });
    expect(result.played).to.equal(8);
    expect(result.grading).to.deep.equal({
      graded: 4,
      cached: 0,
      errors: 4,
      compared: 4,
      comparedCached: 0,
      compareErrors: 0,
      fellBack: 0,
    });
    campaign = result.campaign;
    await writeReport(ws.outDir);
  });
  after(() => ws.cleanup());

  it('writes a valid grading.json for every run, with the judge, the rubric and its one call', async () => {
    const gradings = await allGradings(ws.outDir);
    expect(gradings).to.have.length(8);
    const good = gradings.find((g) => g.eval === 'plan-then-execute' && g.run === 1)!;
    expect(good).to.deep.include({
      status: 'graded',
      expectations_passed: 0.5,
      all_passed: false,
      judge: {
        model: 'stand-in-judge',
        source: 'script',
        script_sha256: good.judge.script_sha256,
      },
    });
    expect(good.rubric.version).to.equal('grading-rubric@1');
    expect(good.expectations).to.deep.equal([
      { expectation: GOOD[0], passed: true, evidence: '+exports.multiply' },
      { expectation: GOOD[1], passed: false, evidence: 'not shown' },
    ]);
    expect(good.calls).to.have.length(1);
    expect(good.calls[0]).to.include({ status: 200, input_tokens: 900, output_tokens: 60 });
    // The gateway's own log of the call, beside it.
    const logged = await readJson<{ path: string; model: string; status: number }>(
      path.join(runDir(ws.outDir, 'plan-then-execute', 'with_skill', 1), 'judge-calls.jsonl'),
    );
    expect(logged).to.include({ path: '/v1/messages', model: 'stand-in-judge', status: 200 });
  });

  it('records an answer that is not JSON as a grading error, never a fail', async () => {
    const g = await readJson<GradingFile>(
      path.join(runDir(ws.outDir, 'plan-only', 'without_skill', 1), 'grading.json'),
    );
    expect(g.status).to.equal('error');
    expect(g.error).to.match(/^the judge's answer is not JSON .*it began "Looks great to me/);
    expect(g.expectations).to.deep.equal([
      { expectation: PLAN_ONLY[0], passed: null, evidence: null },
    ]);
    expect(g.expectations_passed).to.equal(null);
    expect(g.all_passed).to.equal(null);
    const benchmark = await readJson<BenchmarkFile>(path.join(ws.outDir, 'benchmark.json'));
    for (const c of benchmark.grading!.conditions) {
      // Only plan-then-execute's two runs count per condition: the errors are not failures.
      expect(c).to.deep.include({ graded: 2, errors: 2, without_grading: 0 });
      expect(c.all_passed).to.deep.include({ successes: 0, n: 2 });
      expect(c.expectations).to.deep.include({ successes: 2, n: 4, rate: 0.5 });
    }
  });

  it('judges each run number of the two conditions blind, in the recorded seeded order, with win rates', async () => {
    const wins: Record<string, number> = { without_skill: 0, with_skill: 0 };
    for (const e of EVALS) {
      for (const n of RUNS) {
        const file = path.join(
          ws.outDir,
          'comparisons',
          'without_skill.vs.with_skill',
          e,
          `run-0${n}`,
          'comparison.json',
        );
        const c = await readJson<ComparisonFile>(file);
        assertArtifact('comparison', c, file);
        const expected = blindOrder(campaign, e, n, ['without_skill', 'with_skill']);
        expect(c.seed).to.equal(expected.seed);
        expect(c.order).to.deep.equal(expected.order);
        // The script always prefers state A: the winner is whichever condition was shown first.
        expect(c).to.deep.include({ status: 'judged', winner: c.order[0], reason: 'A says more.' });
        wins[c.order[0]]!++;
      }
    }
    const benchmark = await readJson<BenchmarkFile>(path.join(ws.outDir, 'benchmark.json'));
    expect(benchmark.grading!.blind).to.have.length(1);
    const blind = benchmark.grading!.blind![0]!;
    expect(blind).to.deep.include({ judged: 4, ties: 0, errors: 0 });
    for (const w of blind.wins) {
      expect(w.stats).to.deep.include({ successes: wins[w.condition], n: 4 });
      expect(w.stats.ci95).to.have.length(2);
    }
  });

  it('evalrig report reads the gradings and calls no model', async () => {
    let requests = 0;
    const server: Server = createServer((req, res) => {
      requests++;
      res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{}}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      // A judge that would be asked, if anything asked it.
      await writeSet({
        ...set,
        judge: {
          model: { url: `http://127.0.0.1:${port}`, key_env: 'EVALRIG_TEST_JUDGE_KEY' },
          model_name: 'stand-in-judge',
        },
      });
      const r = await execa('node', ['--import', 'tsx', 'src/cli/main.ts', 'report', ws.outDir], {
        reject: false,
        env: { EVALRIG_TEST_JUDGE_KEY: 'k' },
      });
      expect(r.exitCode, r.stderr).to.equal(0);
      expect(requests).to.equal(0);
      const md = await readFile(path.join(ws.outDir, 'report.md'), 'utf8');
      expect(md).to.include('## Expectations (judge)');
      expect(md).to.include('| plan-then-execute | with_skill | math.js exports multiply. |');
      // The same judge is asked by evalrig grade: the server above would have counted a call.
      process.env.EVALRIG_TEST_JUDGE_KEY = 'k';
      const graded = await gradeCampaignFolder(ws.outDir, { log: QUIET });
      // Another judge: every run is asked again, and the server above fails each question.
      expect(graded.errors).to.equal(8);
      expect(requests).to.be.greaterThan(0);
    } finally {
      delete process.env.EVALRIG_TEST_JUDGE_KEY;
      server.close();
      await writeSet(set);
    }
  });

  it('evalrig grade asks the judge again for runs whose grading errored, whose inputs or judge script changed, or all with force', async () => {
    const before = await judgeCalls(ws.outDir, 'plan-then-execute', 'with_skill', 1);
    // A changed script is another judge: every grading and comparison is asked again.
    await writeScript(judgeScript({ planOnly: 'valid', good: 'both' }));
    const fixed = await gradeCampaignFolder(ws.outDir, { log: QUIET });
    expect(fixed).to.include({ graded: 8, cached: 0, errors: 0, compared: 4, comparedCached: 0 });
    expect(await judgeCalls(ws.outDir, 'plan-then-execute', 'with_skill', 1)).to.equal(before + 1);
    const planOnly = await readJson<GradingFile>(
      path.join(runDir(ws.outDir, 'plan-only', 'with_skill', 2), 'grading.json'),
    );
    expect(planOnly).to.deep.include({ status: 'graded', all_passed: true });

    // New expectations for one eval, the same script: its four runs (and two comparisons) only.
    const evals = set.evals as Record<string, unknown>[];
    await writeSet({ ...set, evals: [{ ...evals[0], expectations: CHANGED }, evals[1]] });
    const changed = await gradeCampaignFolder(ws.outDir, { log: QUIET });
    expect(changed).to.include({ graded: 4, cached: 4, errors: 0, compared: 2, comparedCached: 2 });
    for (const c of CONDITIONS)
      for (const n of RUNS) {
        expect(await judgeCalls(ws.outDir, 'plan-then-execute', c, n)).to.equal(before + 2);
        const g = await readJson<GradingFile>(
          path.join(runDir(ws.outDir, 'plan-then-execute', c, n), 'grading.json'),
        );
        expect(g.expectations.map((x) => x.expectation)).to.deep.equal(CHANGED);
      }

    // Nothing changed: nothing is asked; unless forced.
    const again = await gradeCampaignFolder(ws.outDir, { log: QUIET });
    expect(again).to.include({ graded: 0, cached: 8, errors: 0, compared: 0, comparedCached: 4 });
    const forced = await gradeCampaignFolder(ws.outDir, { log: QUIET, force: true });
    expect(forced).to.include({ graded: 8, cached: 0, errors: 0, compared: 4, comparedCached: 0 });
    expect(await judgeCalls(ws.outDir, 'plan-only', 'with_skill', 1)).to.be.greaterThan(1);
  });

  it("keeps the judge's own flight record: each question's request and answer, rebuilt", async () => {
    const dir = runDir(ws.outDir, 'plan-then-execute', 'with_skill', 1);
    const record = await readFlight(judgeFlightFiles(dir));
    const last = record.calls[record.calls.length - 1]!;
    const request = record.request(last) as { system: string; messages: { content: string }[] };
    expect(request.system).to.include('You grade one run of a coding agent');
    expect(request.messages[0]!.content).to.include('<run-record>');
    expect(request.messages[0]!.content).to.include(CHANGED[2]);
    expect(record.responseFacts(last)?.texts.join('')).to.include('"expectations"');
    expect(record.manifest?.calls).to.equal(1);
  });

  it('asks an overloaded judge again, recording both calls, and grades with the answer', async () => {
    await writeScript({
      responses: [
        { when: { contains: ['eval: plan-only'] }, error: { status: 529, retry_after: 0 } },
        ...judgeScript({ planOnly: 'valid', good: 'both' }).responses,
      ],
    });
    const dir = runDir(ws.outDir, 'plan-only', 'without_skill', 1);
    await rm(path.join(dir, 'grading.json'));
    // A new script: every run is graded again, each plan-only question overloaded once.
    const summary = await gradeCampaignFolder(ws.outDir, { log: QUIET });
    expect(summary).to.include({ graded: 8, cached: 0, errors: 0 });
    const g = await readJson<GradingFile>(path.join(dir, 'grading.json'));
    expect(g.status).to.equal('graded');
    expect(g.calls.map((c) => c.status)).to.deep.equal([529, 200]);
  });

  it('evalrig grade on the command line says what it did and rewrites the report', async () => {
    const before = (await readJson<BenchmarkFile>(path.join(ws.outDir, 'benchmark.json')))
      .generated_at;
    const r = await execa('node', ['--import', 'tsx', 'src/cli/main.ts', 'grade', ws.outDir], {
      reject: false,
    });
    expect(r.exitCode, r.stderr).to.equal(0);
    expect(r.stderr).to.include(
      'evalrig: grading: 0 run(s) graded by the judge, 8 unchanged (no call), 0 grading error(s); blind comparison: 0 judged, 4 unchanged, 0 error(s)',
    );
    expect(r.stdout).to.include(`report: ${path.join(ws.outDir, 'report.html')}`);
    const benchmark = await readJson<BenchmarkFile>(path.join(ws.outDir, 'benchmark.json'));
    expect(benchmark.generated_at).to.not.equal(before);
    expect(benchmark.grading!.conditions.map((c) => c.errors)).to.deep.equal([0, 0]);
    // Who graded: one judge and rubric for all eight runs now (an API judge graded some before).
    // Each script that graded is named: a grading made before the script was edited stands.
    const scripts = [...new Set((await allGradings(ws.outDir)).map((g) => g.judge.script_sha256!))];
    expect(benchmark.grading!.judges).to.deep.equal([
      {
        model: 'stand-in-judge',
        source: 'script',
        scripts_sha256: scripts.sort(),
        rubric: 'grading-rubric@1',
        rubric_sha256: GRADING_RUBRIC_RECORD.sha256,
        runs: 8,
      },
    ]);
  });

  it('says when a judge script answered from its catch-all, in the summary, grading.json, the report and try-script', async () => {
    const both = judgeScript({ planOnly: 'valid', good: 'both' }).responses;
    await writeScript({
      responses: [
        both[0],
        both[1],
        // A `when` that misses plan-only's questions: its catch-all answers them instead.
        { when: { contains: ['eval: nowhere'] }, ...grading(PLAN_ONLY) },
        both[3],
        { description: 'the catch-all', ...grading(PLAN_ONLY) },
      ],
    });
    const summary = await gradeCampaignFolder(ws.outDir, { log: QUIET });
    expect(summary).to.include({ graded: 8, errors: 0, fellBack: 4 });
    for (const c of CONDITIONS) {
      const execute = await readJson<GradingFile>(
        path.join(runDir(ws.outDir, 'plan-then-execute', c, 1), 'grading.json'),
      );
      expect(execute).to.not.have.property('fell_back');
      const planOnly = await readJson<GradingFile>(
        path.join(runDir(ws.outDir, 'plan-only', c, 1), 'grading.json'),
      );
      expect(planOnly).to.include({ status: 'graded', fell_back: true });
    }
    await writeReport(ws.outDir);
    const benchmark = await readJson<BenchmarkFile>(path.join(ws.outDir, 'benchmark.json'));
    expect(benchmark.grading!.conditions.map((c) => c.fell_back)).to.deep.equal([2, 2]);
    const md = await readFile(path.join(ws.outDir, 'report.md'), 'utf8');
    expect(md).to.include(
      "**Warning: 2 of 4 grading(s) of without_skill, 2 of 4 grading(s) of with_skill came from the judge script's catch-all",
    );

    const tried = await execa(
      'node',
      ['--import', 'tsx', 'src/cli/main.ts', 'try-script', scriptFile(), ws.outDir, '--judge'],
      { reject: false },
    );
    expect(tried.exitCode, tried.stderr).to.equal(0);
    const rows = tried.stdout.split('\n').slice(1);
    const planOnlyRows = rows.filter((r) => r.startsWith('runs/plan-only/'));
    const executeRows = rows.filter((r) => r.startsWith('runs/plan-then-execute/'));
    expect(
      planOnlyRows.filter((r) => r.includes('catch-all  the catch-all')),
    ).to.have.length.of.at.least(4);
    expect(
      planOnlyRows.every((r) => /catch-all|none fits/u.test(r)),
      planOnlyRows.join('\n'),
    ).to.equal(true);
    expect(executeRows.length).to.be.greaterThan(0);
    expect(
      executeRows.every((r) => r.includes('by when')),
      executeRows.join('\n'),
    ).to.equal(true);
    // A question's first request; a retried one (the overloaded judge above) got the next answer.
    const compareRows = rows.filter(
      (r) => r.startsWith('comparisons/') && r.split(/ {2,}/u)[1] === '1',
    );
    expect(compareRows).to.have.length.of.at.least(4);
    expect(
      compareRows.every((r) => r.includes('by when')),
      compareRows.join('\n'),
    ).to.equal(true);
    expect(tried.stderr).to.match(
      /evalrig try-script: \d+ request\(s\): \d+ by "when", 0 in order, [1-9]\d* from a catch-all/u,
    );
  });

  it('exits 1 for a CI when gradings errored: grade always, run with --fail-on-grading-errors', async () => {
    await writeScript(judgeScript({ planOnly: 'garbled', good: CHANGED }));
    await rm(path.join(runDir(ws.outDir, 'plan-only', 'with_skill', 2), 'grading.json'));
    const cli = (...args: string[]) =>
      execa('node', ['--import', 'tsx', 'src/cli/main.ts', ...args], { reject: false });
    const graded = await cli('grade', ws.outDir, '--no-report');
    expect(graded.exitCode, graded.stderr).to.equal(1);
    // A new script: every run is asked again, and plan-only's four answers are no JSON.
    expect(graded.stderr).to.include('evalrig: 4 grading error(s): exit 1');
    // The eval set the campaign was played with (a test above changed it), every run finished:
    // run plays none, grades again, and its gradings err (the script's answers fit neither).
    await writeFile(ws.evalSetFile, `${JSON.stringify(set, null, 2)}\n`);
    const run = (...flags: string[]) =>
      cli('run', ws.evalSetFile, '--out', ws.outDir, '--no-report', ...flags);
    const strict = await run('--fail-on-grading-errors');
    expect(strict.exitCode, strict.stderr).to.equal(1);
    expect(strict.stderr).to.match(
      /evalrig: \d+ grading error\(s\): exit 1 \(--fail-on-grading-errors\)/u,
    );
    const lenient = await run();
    expect(lenient.exitCode, lenient.stderr).to.equal(0);
  });
});
