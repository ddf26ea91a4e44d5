import { expect } from 'chai';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { assertArtifact } from '../../../src/artifacts/index.js';
import {
  fisherExact,
  formatSummaryTable,
  newcombeDifference,
  wilson,
  writeReport,
  type BenchmarkFile,
  type ReportSummary,
} from '../../../src/report/index.js';
import { exactCmhFraction } from '../../../src/report/cmh.js';
import { mantelHaenszelDifference } from '../../../src/report/mh-difference.js';
import { GOOD_RUN, MIXED, writeCampaign } from './fixture.js';

/** The error a promise rejects with; fails the test when it fulfils. */
async function rejection(promise: Promise<unknown>): Promise<Error & { exitCode: number }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { exitCode: number };
  }
  throw new Error('expected a rejection');
}

const repoRoot = path.resolve(import.meta.dirname, '../../..');

describe('report: writeReport over a stored campaign', function () {
  let dir: string;
  let summary: ReportSummary;
  let bench: BenchmarkFile;

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'evalrig-report-'));
    await writeCampaign(dir, MIXED);
    summary = await writeReport(dir, { now: new Date('2025-03-02T00:00:00Z') });
    bench = JSON.parse(await readFile(path.join(dir, 'benchmark.json'), 'utf8')) as BenchmarkFile;
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const cond = (name: string) => bench.conditions.find((c) => c.condition === name)!;

  it('writes the four files at the top of the campaign folder, benchmark.json valid', () => {
    expect(summary.files.benchmark).to.equal(path.join(dir, 'benchmark.json'));
    assertArtifact('benchmark', bench, 'benchmark.json');
    expect(bench.runs).to.deep.equal({ total: 20, without_record: 0 });
  });

  it('keeps the conditions in the order conditions.json declares them', () => {
    expect(bench.conditions.map((c) => c.condition)).to.deep.equal(['without_skill', 'with_skill']);
    expect(bench.evals.map((e) => `${e.eval}/${e.condition}`)).to.deep.equal([
      'add-feature/with_skill',
      'add-feature/without_skill',
      'fix-bug/with_skill',
      'fix-bug/without_skill',
    ]);
  });

  it('counts statuses; failed runs stay out of the measures', () => {
    expect(cond('with_skill')).to.include({ runs: 10, measured: 10 });
    expect(cond('with_skill').status).to.deep.equal({
      completed: 9,
      timed_out: 1,
      broken: 0,
      failed: 0,
      limit_reached: 0,
    });
    expect(cond('without_skill')).to.include({ runs: 10, measured: 9 });
    expect(cond('without_skill').status).to.deep.equal({
      completed: 9,
      timed_out: 0,
      broken: 0,
      failed: 1,
      limit_reached: 0,
    });
  });

  it("keeps the campaign's account: every run counted per condition, list prices named, the wall time from the runs", () => {
    const a = bench.account!;
    expect(a).to.include({ prices: 'list' });
    expect(a.price_table).to.match(/^\d{4}-\d{2}-\d{2}\.\d+$/u);
    expect(a.agent.map((c) => [c.condition, c.runs])).to.have.deep.members([
      ['with_skill', 10],
      ['without_skill', 10],
    ]);
    const agents = a.agent.reduce((n, c) => n + c.cost_usd, 0);
    expect(a.total_cost_usd).to.be.closeTo(agents + a.judge.cost_usd, 1e-6);
    expect(a.wall_time_s).to.be.greaterThan(0);
  });

  it('gives each rate its successes, n and Wilson interval', () => {
    const w = cond('with_skill').measures;
    expect(w.pr_draft_at_hand_over).to.deep.equal({
      rate: 1,
      successes: 10,
      n: 10,
      ci95: wilson(10, 10),
    });
    // The timed-out run reached no execution stop: not a run of pr_refreshed.
    expect(w.pr_refreshed).to.include({ successes: 9, n: 9, rate: 1 });
    expect(w.pr_marked_ready).to.include({ successes: 0, n: 10, rate: 0 });

    const wo = cond('without_skill').measures;
    expect(wo.pr_draft_at_hand_over).to.include({ successes: 5, n: 9 });
    expect(wo.pr_draft_at_hand_over.ci95).to.deep.equal(wilson(5, 9));
    expect(wo.pr_described).to.include({ successes: 7, n: 9 });
    expect(wo.pr_refreshed).to.include({ successes: 2, n: 9 });
    expect(wo.pr_marked_ready).to.include({ successes: 2, n: 9 });
    expect(wo.checks_passed).to.include({ successes: 6, n: 9 });
  });

  it('summarises numbers with mean, sample stddev, min and max', () => {
    const w = cond('with_skill').measures;
    expect(w.turns.mean).to.be.closeTo(1.9, 1e-12);
    expect(w.turns).to.include({ min: 1, max: 2, n: 10 });
    expect(w.files_changed).to.include({ mean: 2, stddev: 0, min: 2, max: 2 });
    const wo = cond('without_skill').measures;
    // files changed: 1..5 for add-feature, 1..4 for fix-bug
    const values = [1, 2, 3, 4, 5, 1, 2, 3, 4];
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    const sd = Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / (values.length - 1));
    expect(wo.files_changed.mean).to.be.closeTo(mean, 1e-12);
    expect(wo.files_changed.stddev).to.be.closeTo(sd, 1e-12);
    expect(wo.gh_not_played.mean).to.be.closeTo(2 / 9, 1e-12);
    expect(wo.duration_s).to.include({ min: 10, max: 50 });
  });

  it('aggregates per (eval, condition) as well', () => {
    const e = bench.evals.find((x) => x.eval === 'fix-bug' && x.condition === 'without_skill')!;
    expect(e.runs).to.equal(5);
    expect(e.measures.pr_draft_at_hand_over).to.include({ successes: 2, n: 4 });
  });

  it("aggregates the adapter agent's totals per condition: tokens, cost, tool calls", () => {
    const a = cond('with_skill').agent;
    // Runs 1-5 of both evals: 1000 i tokens in, sample stddev of 1000 x [1..5] twice.
    expect(a.tokens_in).to.include({ min: 1000, max: 5000, n: 10 });
    expect(a.tokens_in.mean).to.be.closeTo(3000, 1e-9);
    expect(a.tokens_in.stddev).to.be.closeTo(1000 * Math.sqrt(20 / 9), 1e-9);
    expect(a.tokens_out).to.include({ min: 100, max: 500, n: 10 });
    expect(a.tokens_out.mean).to.be.closeTo(300, 1e-9);
    expect(a.cache_read).to.include({ mean: 500, stddev: 0, n: 10 });
    expect(a.cache_write).to.include({ mean: 50, n: 10 });
    expect(a.cost_usd.mean).to.be.closeTo(0.03, 1e-12);
    expect(a.cost_usd.n).to.equal(10);
    expect(a.tool_calls).to.include({ min: 5, max: 9, n: 10 });
    expect(a.tool_calls.mean).to.be.closeTo(7, 1e-12);
    expect(a.tool_calls_failed).to.include({ min: 0, max: 1, n: 10 });
    expect(a.tool_calls_failed.mean).to.be.closeTo(0.2, 1e-12);
    expect(a.model_requests).to.include({ mean: 3, n: 10 });
  });

  it('counts only the runs with an agent record: command-agent runs and unknown costs are not 0', () => {
    const a = cond('without_skill').agent;
    // Runs 1-3 of each eval have a record (runs 4-5 played a command agent; fix-bug 5 failed).
    expect(a.tokens_in).to.deep.equal({ mean: 2000, stddev: 0, min: 2000, max: 2000, n: 6 });
    // Run 3 reported no cost: 4 costs, not 6 with two zeros.
    expect(a.cost_usd).to.include({ mean: 0.02, n: 4 });
    const fixBug = bench.evals.find(
      (e) => e.eval === 'fix-bug' && e.condition === 'without_skill',
    )!;
    expect(fixBug.agent.tool_calls).to.include({ mean: 3, n: 3 });
    const addFeature = bench.evals.find(
      (e) => e.eval === 'add-feature' && e.condition === 'with_skill',
    )!;
    expect(addFeature.agent.tokens_in).to.include({ mean: 3000, n: 5 });
  });

  it("compares the agent's means with the baseline's", () => {
    const d = bench.comparisons[0]!.agent;
    expect(d.tokens_in).to.include({ kind: 'number', baseline: 2000 });
    expect(d.tokens_in.other).to.be.closeTo(3000, 1e-9);
    expect(d.tokens_in.difference).to.be.closeTo(1000, 1e-9);
    expect(d.tool_calls.baseline).to.equal(3);
    expect(d.tool_calls.difference).to.be.closeTo(4, 1e-12);
    expect(d.cost_usd.difference).to.be.closeTo(0.01, 1e-12);
  });

  it('compares each condition with the declared baseline: differences and Fisher p', () => {
    expect(bench.baseline_condition).to.equal('without_skill');
    expect(bench.comparisons).to.have.length(1);
    const cmp = bench.comparisons[0]!;
    expect(cmp).to.include({ baseline: 'without_skill', condition: 'with_skill' });
    const d = cmp.measures.pr_draft_at_hand_over;
    expect(d.difference).to.be.closeTo(1 - 5 / 9, 1e-12);
    expect(d.p_value).to.be.closeTo(fisherExact(10, 0, 5, 4)!, 1e-12);
    expect(cmp.measures.files_changed.difference).to.be.closeTo(2 - 25 / 9, 1e-12);
  });

  it('records the provenance', () => {
    const p = bench.provenance;
    expect(p.eval_set.sha256).to.equal('a'.repeat(64));
    expect(p.codebases).to.have.length(1);
    expect(p.codebases[0]).to.include({ url: 'https://example.invalid/acme/toy.git', ref: 'v1.0' });
    expect(p.codebases[0]!.evals).to.deep.equal(['add-feature', 'fix-bug']);
    expect(p.host_local).to.equal(false);
    expect(p.image.id).to.equal(`sha256:${'d'.repeat(64)}`);
    expect(p.stand_in_sha256).to.equal('e'.repeat(64));
    expect(p.generated_at).to.equal('2025-03-02T00:00:00.000Z');
  });

  it('BASELINE.md names the codebase with its resolved commit, image and stand-in', async () => {
    const md = await readFile(path.join(dir, 'BASELINE.md'), 'utf8');
    expect(md).to.contain(`https://example.invalid/acme/toy.git @ v1.0 → ${'c'.repeat(40)}`);
    expect(md).to.contain('a'.repeat(64));
    expect(md).to.contain(`sha256:${'d'.repeat(64)}`);
    expect(md).to.contain('e'.repeat(64));
    expect(md).not.to.contain('host-local');
  });

  it('report.md shows the per-condition table and the comparison', async () => {
    const md = await readFile(path.join(dir, 'report.md'), 'utf8');
    expect(md).to.contain('| measure | without_skill | with_skill |');
    expect(md).to.contain('55.6% (5/9)');
    expect(md).to.contain('### with_skill vs without_skill');
    const [lo, hi] = newcombeDifference(10, 10, 5, 9)!;
    const interval = `[${(lo * 100).toFixed(1)}, ${(hi * 100).toFixed(1)}]`;
    expect(interval).to.equal('[6.7, 73.3]');
    expect(md).to.contain(`+44.4 pts ${interval} | ${fisherExact(10, 0, 5, 4)!.toFixed(4)}`);
  });

  it('report.md opens with the verdict: each rate that differs, in plain words, clearest first', async () => {
    const md = await readFile(path.join(dir, 'report.md'), 'utf8');
    const lines = md.split('\n');
    const verdictAt = lines.indexOf('## Verdict');
    expect(verdictAt).to.equal(2);
    expect(verdictAt).to.be.lessThan(lines.indexOf('## Per condition'));
    const items = lines.slice(verdictAt).filter((l) => l.startsWith('- '));
    // Two evals with runs of both conditions: tested within them. PR refreshed in execution:
    // add-feature 4 of 4 (its timed-out run never reached execution) against 1 of 5, fix-bug 5
    // of 5 against 1 of 4 (its failed run left out).
    const strata = [
      { x1: 4, n1: 4, x2: 1, n2: 5 },
      { x1: 5, n1: 5, x2: 1, n2: 4 },
    ];
    const p = exactCmhFraction(strata)!;
    const mh = mantelHaenszelDifference(strata)!;
    const bounds = mh.ci95.map((x) => Math.round(x * 100)).join(', ');
    expect(items[0]).to.equal(
      `- **with_skill refreshes the PR description in execution in 100% vs 22% of runs, within evals +${Math.round(mh.difference * 100)} pts [${bounds}], p ${(Number(p.num) / Number(p.den)).toPrecision(2)}; stratified by 2 evals: Mantel-Haenszel difference, exact CMH p**`,
    );
    // Not significant: said so, with how large a difference these runs could detect.
    expect(md).to.match(
      /- with_skill passes the checks in 100% vs 67% of runs, within evals \+33 pts \[−3, 62\], p 0\.099 \(could be chance\); with 10 and 9 runs only differences of ≥ \d+ pts from a baseline at 67% can be detected \(80% power, p < 0\.05, Fisher's test over the pooled runs\); stratified by 2 evals/,
    );
    expect(md).to.contain('> ⚠ with_skill vs without_skill: with 10 and 9 runs');
  });

  it('measures no_missing_gh per condition, compares it, and writes its verdict to benchmark.json', () => {
    expect(cond('without_skill').message_checks!.no_missing_gh).to.deep.include({
      successes: 5,
      n: 9,
    });
    expect(cond('with_skill').message_checks!.no_missing_gh).to.deep.include({
      successes: 10,
      n: 10,
    });
    const d = bench.comparisons[0]!.message_checks!.no_missing_gh!;
    expect(d.p_value).to.be.closeTo(fisherExact(10, 0, 5, 4)!, 1e-12);
    expect(d.ci95).to.deep.equal(newcombeDifference(10, 10, 5, 9));
    const v = bench.verdicts!.find((x) => x.measure === 'message_checks.no_missing_gh')!;
    // Within evals: add-feature 5 of 5 against 3 of 5, fix-bug 5 of 5 against 2 of 4.
    const strata = [
      { x1: 5, n1: 5, x2: 3, n2: 5 },
      { x1: 5, n1: 5, x2: 2, n2: 4 },
    ];
    const p = exactCmhFraction(strata)!;
    expect(v).to.deep.include({ test: 'cmh_exact', significant: true });
    expect(v.p_value).to.equal(Number(p.num) / Number(p.den));
    expect(v.difference).to.equal(mantelHaenszelDifference(strata)!.difference);
    expect(v.text).to.equal(
      `with_skill never says gh is missing or unauthenticated in 100% vs 56% of runs, within evals +45 pts [7, 70], p ${v.p_value!.toPrecision(2)}; stratified by 2 evals: Mantel-Haenszel difference, exact CMH p`,
    );
    expect(v.stratified).to.deep.include({ evals: 2, left_out: [], simpson: false });
    expect(v.stratified!.pooled.p_value).to.equal(d.p_value);
    expect(bench.power_warnings).to.have.length(1);
    expect(bench.power_warnings![0]).to.include({ condition_runs: 10, baseline_runs: 9 });
  });

  it("report.md shows each eval's prompt, later messages and expectations", async () => {
    const md = await readFile(path.join(dir, 'report.md'), 'utf8');
    expect(md).to.contain(
      '### add-feature\n\nPrompt:\n\n> Plan add-feature, open a draft PR with the plan & hand over.',
    );
    expect(md).to.contain('Turn 2 (execution):\n\n> Approved <go on>.');
    expect(md).to.contain('Expectations:\n\n- The PR is a draft at hand over.');
    expect(bench.prompts!.map((p) => p.eval)).to.deep.equal(['add-feature', 'fix-bug']);
  });

  it("report.md shows the agent's numbers with their spread, and their differences", async () => {
    const md = await readFile(path.join(dir, 'report.md'), 'utf8');
    expect(md).to.contain(
      '| agent tokens in | 2000 ± 0 (2000–2000, n 6) | 3000 ± 1490.71 (1000–5000, n 10) |',
    );
    expect(md).to.contain('| agent cost (USD) | 0.02 ± 0 (0.02–0.02, n 4) |');
    expect(md).to.contain('| agent tokens in | +1000 |  |');
    expect(md).to.contain('| agent tool calls | +4 |  |');
  });

  it('report.html links each run to the files it has, relatively, and to no other', async () => {
    const html = await readFile(path.join(dir, 'report.html'), 'utf8');
    const run = 'runs/add-feature/with_skill/run-01';
    for (const f of [
      'run.json',
      'stops/stop-01.json',
      'stops/stop-02.json',
      'turns/turn-01.jsonl',
      'turns/turn-02.jsonl',
      'diff.patch',
      'calls.jsonl',
    ]) {
      expect(html).to.contain(`href="${run}/${f}"`);
    }
    // A command agent's run links its stdout; a run that reached no stop has only its run.json.
    expect(html).to.contain(
      'href="runs/add-feature/without_skill/run-04/turns/turn-01.stdout.txt"',
    );
    const failed = 'runs/fix-bug/without_skill/run-05/';
    const failedLinks = [...html.matchAll(/href="([^"]*)"/g)]
      .map((m) => m[1]!)
      .filter((h) => h.startsWith(failed));
    expect(failedLinks).to.deep.equal([`${failed}run.json`]);
    expect(html).not.to.contain('model-calls.jsonl');
  });

  it('the summary table prints a column per condition', () => {
    const text = formatSummaryTable(summary);
    const lines = text.split('\n');
    expect(lines[0]).to.match(/^measure\s+without_skill \(baseline\)\s+with_skill$/);
    expect(text).to.match(/PR draft at hand over\s+55\.6% \(5\/9\)\s+100\.0% \(10\/10\)/);
    expect(text).to.match(/turns \(mean\)\s+[\d.]+ \(n 9\)\s+1\.9 \(n 10\)/);
  });

  it('report.html shows every run timeline up to the limit, then how many more', async () => {
    const limited = await mkdtemp(path.join(os.tmpdir(), 'evalrig-report-'));
    try {
      await writeCampaign(limited, MIXED);
      await writeReport(limited, { timelineLimit: 3 });
      const html = await readFile(path.join(limited, 'report.html'), 'utf8');
      expect(html.match(/<details class="run"/g)).to.have.length(3);
      expect(html).to.contain('17 more runs not shown');
    } finally {
      await rm(limited, { recursive: true, force: true });
    }
  });
});

describe('report: campaigns off the beaten path', () => {
  const dirs: string[] = [];
  const tmp = async () => {
    const d = await mkdtemp(path.join(os.tmpdir(), 'evalrig-report-'));
    dirs.push(d);
    return d;
  };
  after(async () => {
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  });

  it('a missing conditions.json is a clear input error naming it', async () => {
    const d = await tmp();
    const error = await rejection(writeReport(d));
    expect(error.message).to.contain(path.join(d, 'conditions.json'));
    expect(error.exitCode).to.equal(2);
  });

  it('shows what the agent said as text: a hostile final message neither runs nor links', async () => {
    const d = await tmp();
    const hostile =
      '<script>alert(1)</script><a href="https://evil.invalid/x">gh</a> | `gh` is not installed';
    await writeCampaign(d, {
      ...MIXED,
      runs: 1,
      plan: (e, c, i) => ({ ...MIXED.plan(e, c, i), message: hostile }),
    });
    await writeReport(d);
    const html = await readFile(path.join(d, 'report.html'), 'utf8');
    expect(html).not.to.contain('<script>');
    expect(html).not.to.contain('href="https://evil.invalid');
    expect(html).to.contain('&lt;script&gt;alert(1)&lt;/script&gt;&lt;a href=&quot;https://evil');
    const bench = JSON.parse(
      await readFile(path.join(d, 'benchmark.json'), 'utf8'),
    ) as BenchmarkFile;
    // Said at every stop of every measured run: no_missing_gh fails everywhere.
    for (const c of bench.conditions) expect(c.message_checks!.no_missing_gh!.rate).to.equal(0);
  });

  it('a campaign with no run is a clear input error naming the runs folder', async () => {
    const d = await tmp();
    await writeCampaign(d, { ...MIXED, runs: 0 });
    const error = await rejection(writeReport(d));
    expect(error.message).to.contain(path.join(d, 'runs')).and.to.contain('no run.json');
    expect(error.exitCode).to.equal(2);
  });

  it('a run.json that is not a run record is named as broken, and the rest reported', async () => {
    const d = await tmp();
    await writeCampaign(d, { ...MIXED, runs: 1 });
    const file = path.join(d, 'runs', 'fix-bug', 'with_skill', 'run-01', 'run.json');
    await writeFile(file, '{"schema": "evalrig/run@1"}');
    const s = await writeReport(d);
    expect(s.runs).to.deep.equal({ total: 3, without_record: 0 });
    expect(s.broken.map((b) => b.run)).to.deep.equal([
      path.join('runs', 'fix-bug', 'with_skill', 'run-01'),
    ]);
    expect(s.broken[0]!.problem).to.contain(file);
  });

  it('counts run folders that have no run.json yet, and reports on the rest', async () => {
    const d = await tmp();
    await writeCampaign(d, { ...MIXED, runs: 1 });
    await mkdir(path.join(d, 'runs', 'fix-bug', 'with_skill', 'run-02'), { recursive: true });
    const s = await writeReport(d);
    expect(s.runs).to.deep.equal({ total: 4, without_record: 1 });
  });

  it('with a baseline not among the conditions, compares the first two', async () => {
    const d = await tmp();
    await writeCampaign(d, { ...MIXED, baseline: 'gone', runs: 1 });
    const s = await writeReport(d);
    expect(s.comparisons.map((c) => [c.baseline, c.condition])).to.deep.equal([
      ['without_skill', 'with_skill'],
    ]);
  });

  it('a single condition has nothing to compare', async () => {
    const d = await tmp();
    await writeCampaign(d, { ...MIXED, conditions: ['only'], baseline: 'only', runs: 2 });
    const s = await writeReport(d);
    expect(s.comparisons).to.deep.equal([]);
    expect(await readFile(path.join(d, 'report.md'), 'utf8')).to.contain('nothing to compare');
  });

  it('a run stopped at the hand over leaves the execution measures unavailable (n 0)', async () => {
    const d = await tmp();
    await writeCampaign(d, {
      ...MIXED,
      stopAtHandOver: true,
      plan: () => ({ ...GOOD_RUN, stops: 1 }),
      runs: 2,
    });
    const s = await writeReport(d);
    const m = s.conditions[0]!.measures;
    expect(m.pr_draft_at_hand_over).to.include({ rate: 1, n: 4 });
    expect(m.pr_described).to.include({ rate: 1, n: 4 });
    expect(m.pr_refreshed).to.deep.equal({ rate: null, successes: 0, n: 0, ci95: null });
    expect(m.pr_marked_ready).to.deep.equal({ rate: null, successes: 0, n: 0, ci95: null });
    expect(s.comparisons[0]!.measures.pr_refreshed).to.include({ difference: null, p_value: null });
    const html = await readFile(path.join(d, 'report.html'), 'utf8');
    expect(html).to.contain('n/a (n 0)');
  });

  it('a campaign of command agents has no agent numbers: n 0 and null, never 0', async () => {
    const d = await tmp();
    await writeCampaign(d, { ...MIXED, plan: () => GOOD_RUN, runs: 2 });
    const s = await writeReport(d);
    for (const c of s.conditions) {
      expect(c.agent.tokens_in).to.deep.equal({
        mean: null,
        stddev: null,
        min: null,
        max: null,
        n: 0,
      });
      expect(c.agent.cost_usd.n).to.equal(0);
    }
    expect(s.comparisons[0]!.agent.tokens_in).to.deep.equal({
      kind: 'number',
      baseline: null,
      other: null,
      difference: null,
    });
    const md = await readFile(path.join(d, 'report.md'), 'utf8');
    expect(md).to.contain('| agent tokens in | n/a (n 0) | n/a (n 0) |');
    expect(md).to.contain('| agent tokens in | n/a |  |');
  });

  it('a host-local codebase is said not to be reproducible elsewhere', async () => {
    const d = await tmp();
    await writeCampaign(d, { ...MIXED, hostLocal: true, runs: 1 });
    await writeReport(d);
    const md = await readFile(path.join(d, 'BASELINE.md'), 'utf8');
    expect(md).to.contain('/home/me/toy →').and.to.contain('[host-local]');
    expect(md).to.contain('host-local: not reproducible elsewhere');
    const bench = JSON.parse(
      await readFile(path.join(d, 'benchmark.json'), 'utf8'),
    ) as BenchmarkFile;
    expect(bench.provenance.host_local).to.equal(true);
  });

  it('names that need escaping stay text in the page', async () => {
    const d = await tmp();
    await writeCampaign(d, {
      ...MIXED,
      conditions: ['<b>bold</b>', 'a|b url(x) @import'],
      baseline: '<b>bold</b>',
      runs: 1,
    });
    await writeReport(d);
    const html = await readFile(path.join(d, 'report.html'), 'utf8');
    expect(html).not.to.contain('<b>bold</b>');
    expect(html).to.contain('&lt;b&gt;bold&lt;/b&gt;');
    expect(await readFile(path.join(d, 'report.md'), 'utf8')).to.contain('a\\|b');
  });
});

describe('report: evalrig report <out>', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'evalrig-report-'));
    await writeCampaign(dir, { ...MIXED, runs: 2 });
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const cli = (...args: string[]) =>
    execa('node', ['--import', 'tsx', path.join(repoRoot, 'src/cli/main.ts'), ...args], {
      cwd: repoRoot,
      reject: false,
    });

  it('recomputes the report from the stored runs and prints the table and the page', async () => {
    const result = await cli('report', dir);
    expect(result.exitCode, result.stderr).to.equal(0);
    expect(result.stdout).to.match(/^measure\s+without_skill \(baseline\)\s+with_skill/);
    expect(result.stdout).to.contain(`report: ${path.join(dir, 'report.html')}`);
    const bench = JSON.parse(
      await readFile(path.join(dir, 'benchmark.json'), 'utf8'),
    ) as BenchmarkFile;
    expect(bench.runs.total).to.equal(8);
  });

  it('says clearly when the folder is not a campaign, exit 2, no stack', async () => {
    const missing = path.join(dir, 'nope');
    const result = await cli('report', missing);
    expect(result.exitCode).to.equal(2);
    expect(result.stderr).to.contain(path.join(missing, 'conditions.json'));
    expect(result.stderr).not.to.contain('    at ');
  });
});
