import { expect } from 'chai';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  newcombeDifference,
  wilson,
  writeReport,
  type BenchmarkFile,
} from '../../../src/report/index.js';
import { GOOD_RUN, writeCampaign, type CampaignSpec } from './fixture.js';

/**
 * A campaign where pooling the runs over evals and comparing within evals disagree in sign.
 * Two evals, 10 runs each per condition; every run completes alike but for its checks, which
 * only some runs have (a run without checks is not a run of checks_passed):
 * - easy: with_skill's checks pass in 9 of 10 runs; without_skill has checks in runs 1-2, both pass;
 * - hard: with_skill has checks in runs 1-2, both fail; without_skill's pass in 1 of 10.
 * Within each eval with_skill does 10 pts worse; pooled, it reads 9 of 12 against 3 of 12,
 * 50 pts better: the evals' mix turns it over.
 */
const SIMPSON: CampaignSpec = {
  evals: ['easy', 'hard'],
  conditions: ['without_skill', 'with_skill'],
  baseline: 'without_skill',
  runs: 10,
  plan: (evalId, condition, i) => {
    const known = (condition === 'with_skill') === (evalId === 'easy') || i <= 2;
    const passes =
      evalId === 'easy'
        ? condition === 'without_skill' || i <= 9
        : condition === 'without_skill' && i === 1;
    return { ...GOOD_RUN, checksPass: known ? passes : null };
  },
};

/** Σ v (p1 − p2) and the MOVER interval over Wilson bounds, written out for these two evals. */
function expectedWithin(): { d: number; lo: number; hi: number } {
  const evals = [
    [9, 10, 2, 2],
    [0, 2, 1, 10],
  ] as const;
  // Each eval weighs 10 × 2 / 12: equal weights of 1/2.
  let d = 0;
  const low: number[] = [];
  const high: number[] = [];
  for (const [x1, n1, x2, n2] of evals) {
    const [l1, u1] = wilson(x1, n1)!;
    const [l2, u2] = wilson(x2, n2)!;
    d += 0.5 * (x1 / n1 - x2 / n2);
    low.push(0.5 * (x1 / n1 - l1), 0.5 * (u2 - x2 / n2));
    high.push(0.5 * (u1 - x1 / n1), 0.5 * (x2 / n2 - l2));
  }
  return { d, lo: d - Math.hypot(...low), hi: d + Math.hypot(...high) };
}

describe("report: a campaign where pooling over evals reverses the sign (Simpson's paradox)", function () {
  let dir: string;
  let bench: BenchmarkFile;

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'evalrig-simpson-'));
    await writeCampaign(dir, SIMPSON);
    await writeReport(dir, { now: new Date('2025-03-02T00:00:00Z') });
    bench = JSON.parse(await readFile(path.join(dir, 'benchmark.json'), 'utf8')) as BenchmarkFile;
  });

  after(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('holds the disagreement: pooled +50 pts, −10 pts within each eval', () => {
    const cond = (c: string) => bench.conditions.find((x) => x.condition === c)!;
    expect(cond('with_skill').measures.checks_passed).to.deep.include({ successes: 9, n: 12 });
    expect(cond('without_skill').measures.checks_passed).to.deep.include({ successes: 3, n: 12 });
    const per = (e: string, c: string) =>
      bench.evals.find((x) => x.eval === e && x.condition === c)!.measures.checks_passed;
    expect(per('easy', 'with_skill')).to.deep.include({ successes: 9, n: 10 });
    expect(per('easy', 'without_skill')).to.deep.include({ successes: 2, n: 2 });
    expect(per('hard', 'with_skill')).to.deep.include({ successes: 0, n: 2 });
    expect(per('hard', 'without_skill')).to.deep.include({ successes: 1, n: 10 });
    // The comparisons table stays pooled: Fisher and Newcombe over the 12 runs a side.
    const pooled = bench.comparisons[0]!.measures.checks_passed;
    expect(pooled.difference).to.equal(0.5);
    expect(pooled.ci95).to.deep.equal(newcombeDifference(9, 12, 3, 12));
  });

  it('gives the stratified verdict, its test, and the paradox in plain words', () => {
    expect(bench.verdicts).to.have.length(1);
    const v = bench.verdicts![0]!;
    const want = expectedWithin();
    expect(v.measure).to.equal('checks_passed');
    expect(v.test).to.equal('cmh_exact');
    expect(v.difference).to.be.closeTo(want.d, 1e-15);
    expect(v.ci95![0]).to.be.closeTo(want.lo, 1e-12);
    expect(v.ci95![1]).to.be.closeTo(want.hi, 1e-12);
    // S (with_skill's passes) can be 9, 10 or 11, weighing C(10, 9) C(2, 2) C(2, 0) C(10, 1) = 100,
    // 10 × 2 + 2 × 10 = 40 and 4: 9 is the likeliest, so p = 144/144.
    expect(v.p_value).to.equal(1);
    expect(v.significant).to.equal(false);
    expect(v.stratified).to.deep.include({ evals: 2, left_out: [], simpson: true });
    expect(v.stratified!.pooled.difference).to.equal(0.5);
    expect(v.text).to.match(
      /^with_skill passes the checks in 75% vs 25% of runs, within evals −10 pts \[−32, 37\], p 1\.0 \(could be chance\); Simpson's paradox: pooled over the evals it reads \+50 pts, the other sign \(the two conditions' runs are spread differently over the evals\); with 12 runs per condition .+; stratified by 2 evals: Mantel-Haenszel difference, exact CMH p$/u,
    );
  });

  it('report.md says the stratified line, the paradox, and each eval beneath', async () => {
    const md = await readFile(path.join(dir, 'report.md'), 'utf8');
    const v = bench.verdicts![0]!;
    expect(md).to.contain(`\n- ${v.text}\n`);
    expect(md).to.contain(
      "Simpson's paradox: pooled over the evals it reads +50 pts, the other sign",
    );
    expect(md).to.contain('Over the runs pooled across evals; the verdict tests within evals.');
    const section = md.slice(md.indexOf('### The verdict, eval by eval'));
    expect(section).to.contain(
      [
        '- with_skill vs without_skill: passes the checks',
        `  - easy: 90% vs 100% of runs (9/10 vs 2/2), −10 pts [${bounds(9, 10, 2, 2)}], p 1.0`,
        `  - hard: 0% vs 10% of runs (0/2 vs 1/10), −10 pts [${bounds(0, 2, 1, 10)}], p 1.0`,
      ].join('\n'),
    );
  });

  it('report.html folds each eval under the line', async () => {
    const html = await readFile(path.join(dir, 'report.html'), 'utf8');
    expect(html).to.contain(
      '<details class="per-eval"><summary class="small">per eval (2)</summary>',
    );
    expect(html).to.contain(`<li data-eval="easy">easy: 90% vs 100% of runs (9/10 vs 2/2)`);
    expect(html).to.contain('Simpson&#39;s paradox: pooled over the evals it reads +50 pts');
  });
});

/** An eval's own Newcombe interval in whole points, as the lines print it. */
function bounds(x1: number, n1: number, x2: number, n2: number): string {
  return newcombeDifference(x1, n1, x2, n2)!
    .map((b) => String(Math.round(b * 100)).replace('-', '−'))
    .join(', ');
}
