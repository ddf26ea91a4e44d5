import { expect } from 'chai';
import type { RunRecord } from '../../../src/artifacts/index.js';
import { RATE_MEASURES } from '../../../src/measure/index.js';
import {
  compare,
  GroupAccumulator,
  rateDifference,
  type GroupStats,
} from '../../../src/report/benchmark.js';
import type { GradingSection } from '../../../src/report/grading.js';
import { fisherExact, newcombeDifference, type RateStats } from '../../../src/report/index.js';
import {
  formatVerdictP,
  MEASURE_PHRASES,
  phraseOf,
  powerWarnings,
  verdicts,
} from '../../../src/report/verdict.js';

const MEASURES: RunRecord['measures'] = {
  pr_draft_at_hand_over: null,
  pr_described: null,
  pr_refreshed: null,
  pr_marked_ready: null,
  gh_not_played: 0,
  environment_broken: false,
  record_tampered: false,
  checks_passed: null,
  files_changed: 0,
  lines_added: 0,
  lines_removed: 0,
  turns: 1,
  duration_s: 1,
};

/** A group of `n` runs, `drafts` of them with a draft at hand over, all passing no_missing_gh. */
function group(n: number, drafts: number): GroupStats {
  const acc = new GroupAccumulator();
  for (let i = 0; i < n; i++) {
    acc.add({
      status: 'completed',
      measures: { ...MEASURES, pr_draft_at_hand_over: i < drafts },
      message_checks: [
        { name: 'no_missing_gh', stops: 'every', rule: {}, passed: true, looked_at: [] },
      ],
    });
  }
  return acc.stats();
}

/** Groups of one (eval, condition) each, and the conditions' groups over them all. */
function campaign(
  evals: Record<string, { without_skill: [number, number]; with_skill: [number, number] }>,
) {
  const byEval = Object.entries(evals).flatMap(([evalId, c]) =>
    (['without_skill', 'with_skill'] as const).map((condition) => ({
      eval: evalId,
      condition,
      ...group(c[condition][0], c[condition][1]),
    })),
  );
  const overall = (condition: string): GroupStats => {
    const acc = new GroupAccumulator();
    for (const c of Object.values(evals)) {
      const [n, drafts] = c[condition as 'with_skill'];
      for (let i = 0; i < n; i++) {
        acc.add({
          status: 'completed',
          measures: { ...MEASURES, pr_draft_at_hand_over: i < drafts },
          message_checks: [
            { name: 'no_missing_gh', stops: 'every', rule: {}, passed: true, looked_at: [] },
          ],
        });
      }
    }
    return acc.stats();
  };
  const base = overall('without_skill');
  const other = overall('with_skill');
  const cmp = compare('without_skill', base, 'with_skill', other);
  const groups = new Map([
    ['without_skill', base],
    ['with_skill', other],
  ]);
  return verdicts([cmp], groups, undefined, byEval);
}

function verdictsOf(base: GroupStats, other: GroupStats) {
  const cmp = compare('without_skill', base, 'with_skill', other);
  const groups = new Map([
    ['without_skill', base],
    ['with_skill', other],
  ]);
  return { cmp, lines: verdicts([cmp], groups) };
}

describe('report verdicts', () => {
  it('has a plain-words phrase for every rate measure', () => {
    expect(Object.keys(MEASURE_PHRASES).sort()).to.deep.equal([...RATE_MEASURES].sort());
    expect(phraseOf('message_checks.no_missing_gh')).to.equal(
      'never says gh is missing or unauthenticated',
    );
    expect(phraseOf('message_checks.says_draft')).to.equal('passes message check says_draft');
  });

  it('gives the judge’s "meets every expectation" its line too, from the grading section', () => {
    const rate = (successes: number, n: number): RateStats => ({
      rate: successes / n,
      successes,
      n,
      ci95: null,
    });
    const graded = (condition: string, all: RateStats) => ({
      condition,
      graded: all.n,
      errors: 0,
      without_grading: 0,
      all_passed: all,
      expectations: all,
      expectations_passed: { mean: null, sd: null, min: null, max: null, n: 0 },
    });
    const grading = {
      judges: [],
      conditions: [graded('without_skill', rate(1, 5)), graded('with_skill', rate(5, 5))],
      expectations: [],
      comparisons: [
        {
          baseline: 'without_skill',
          condition: 'with_skill',
          all_passed: rateDifference(rate(1, 5), rate(5, 5)),
          expectations: rateDifference(rate(1, 5), rate(5, 5)),
        },
      ],
    } as unknown as GradingSection;
    const base = group(5, 0);
    const cmp = compare('without_skill', base, 'with_skill', base);
    const lines = verdicts(
      [cmp],
      new Map([
        ['without_skill', base],
        ['with_skill', base],
      ]),
      grading,
    );
    expect(lines.map((l) => l.measure)).to.deep.equal(['grading.all_passed']);
    expect(lines[0]!.text).to.match(
      /^with_skill meets every expectation \(as the judge graded it\) in 100% vs 20% of runs, \+80 pts \[19, 96\], p 0\.048$/u,
    );
  });

  it("tests the judge's line within evals too, from the grading section's evals", () => {
    const rate = (successes: number, n: number): RateStats => ({
      rate: successes / n,
      successes,
      n,
      ci95: null,
    });
    const graded = (condition: string, all: RateStats) => ({
      condition,
      graded: all.n,
      errors: 0,
      without_grading: 0,
      all_passed: all,
      expectations: all,
      expectations_passed: { mean: null, sd: null, min: null, max: null, n: 0 },
    });
    const grading = {
      judges: [],
      conditions: [graded('without_skill', rate(2, 10)), graded('with_skill', rate(10, 10))],
      expectations: [],
      evals: [
        { eval: 'a', condition: 'with_skill', all_passed: rate(5, 5) },
        { eval: 'a', condition: 'without_skill', all_passed: rate(1, 5) },
        { eval: 'b', condition: 'with_skill', all_passed: rate(5, 5) },
        { eval: 'b', condition: 'without_skill', all_passed: rate(1, 5) },
      ],
      comparisons: [
        {
          baseline: 'without_skill',
          condition: 'with_skill',
          all_passed: rateDifference(rate(2, 10), rate(10, 10)),
          expectations: rateDifference(rate(2, 10), rate(10, 10)),
        },
      ],
    } as unknown as GradingSection;
    const base = group(5, 0);
    const cmp = compare('without_skill', base, 'with_skill', base);
    const groups = new Map([
      ['without_skill', base],
      ['with_skill', base],
    ]);
    const [line] = verdicts([cmp], groups, grading);
    expect(line!.test).to.equal('cmh_exact');
    expect(line!.stratified!.per_eval.map((e) => e.eval)).to.deep.equal(['a', 'b']);
    expect(line!.text).to.match(
      /^with_skill meets every expectation \(as the judge graded it\) in 100% vs 20% of runs, within evals \+80 pts \[\d+, \d+\], p [\d.]+; stratified by 2 evals: Mantel-Haenszel difference, exact CMH p$/u,
    );
  });

  it('says a difference in words, with its Newcombe interval and Fisher p: 5 of 5 vs 0 of 5', () => {
    const { lines } = verdictsOf(group(5, 0), group(5, 5));
    expect(lines).to.have.length(1);
    const [lo, hi] = newcombeDifference(5, 5, 0, 5)!;
    expect([Math.round(lo * 100), Math.round(hi * 100)]).to.deep.equal([39, 100]);
    expect(fisherExact(5, 0, 0, 5)).to.be.closeTo(0.0079, 1e-4);
    expect(lines[0]).to.deep.include({
      measure: 'pr_draft_at_hand_over',
      condition_rate: 1,
      baseline_rate: 0,
      difference: 1,
      significant: true,
      underpowered: false,
      text: 'with_skill opens a draft PR at hand over in 100% vs 0% of runs, +100 pts [39, 100], p 0.0079',
    });
  });

  it('calls a p of exactly 1/20 not below 0.05: 2 of 4 vs 0 of 12 is no stated difference', () => {
    const { lines } = verdictsOf(group(12, 0), group(4, 2));
    expect(lines[0]!.p_value).to.equal(0.05);
    expect(lines[0]!.significant).to.equal(false);
    expect(lines[0]!.text).to.match(
      /^with_skill opens a draft PR at hand over in 50% vs 0% of runs, \+50 pts \[7, 85\], p 0\.050 \(could be chance\);/u,
    );
  });

  it('states no difference whose interval reaches 0, even at p < 0.05, and prints no "−0"', () => {
    // 19 of 19 vs 34 of 42: p 0.0488, Newcombe's interval [−0.06, 33.3] pts.
    const { lines } = verdictsOf(group(42, 34), group(19, 19));
    expect(lines[0]!.p_value).to.be.closeTo(0.04876, 1e-5);
    expect(lines[0]!.significant).to.equal(false);
    expect(lines[0]!.text).to.match(
      /^with_skill opens a draft PR at hand over in 100% vs 81% of runs, \+19 pts \[−0\.1, 33\], p 0\.049 \(could be chance: its interval reaches 0\);/u,
    );
    expect(lines[0]!.text).not.to.match(/−0[,\]]/u);
  });

  it('prints p so that it reads truly: two significant digits, never across 0.05', () => {
    expect(formatVerdictP(0.00953)).to.equal('p 0.0095');
    expect(formatVerdictP(0.52)).to.equal('p 0.52');
    expect(formatVerdictP(0.0496)).to.equal('p 0.0496');
    expect(formatVerdictP(0.05)).to.equal('p 0.050');
    expect(formatVerdictP(0.05, true)).to.equal('p < 0.05');
    expect(formatVerdictP(0.0004)).to.equal('p < 0.001');
    expect(formatVerdictP(1)).to.equal('p 1.0');
  });

  it('gives no line to a rate equal on both sides (no_missing_gh here) or unknown on one', () => {
    const { lines, cmp } = verdictsOf(group(5, 2), group(5, 2));
    expect(lines).to.deep.equal([]);
    expect(cmp.message_checks!.no_missing_gh!.difference).to.equal(0);
  });

  it('says when a difference could be chance, and what these runs could have detected', () => {
    const { lines } = verdictsOf(group(5, 1), group(5, 3));
    expect(lines).to.have.length(1);
    expect(lines[0]!.significant).to.equal(false);
    expect(lines[0]!.underpowered).to.equal(true);
    expect(lines[0]!.text).to.match(
      /^with_skill opens a draft PR at hand over in 60% vs 20% of runs, \+40 pts \[−\d+, \d+\], p 0\.52 \(could be chance\); with 5 runs per condition no difference from a baseline at 20% can be detected \(80% power, p < 0\.05\)$/,
    );
  });

  it('keeps the test of one eval as it was: Fisher and Newcombe over its runs', () => {
    const lines = campaign({ only: { without_skill: [5, 0], with_skill: [5, 5] } });
    expect(lines).to.have.length(1);
    expect(lines[0]).to.deep.include({
      test: 'fisher_exact',
      text: 'with_skill opens a draft PR at hand over in 100% vs 0% of runs, +100 pts [39, 100], p 0.0079',
    });
    expect(lines[0]).not.to.have.property('stratified');
  });

  it('tests within evals when several have runs of both conditions, and says how', () => {
    const lines = campaign({
      a: { without_skill: [5, 0], with_skill: [5, 5] },
      b: { without_skill: [5, 0], with_skill: [5, 5] },
    });
    // Two strata of 5 of 5 against 0 of 5: each table's weights 1, 25, 100, 100, 25, 1 (of 252);
    // S = 10 and its mirror S = 0 weigh 1 each of 252²: p = 2/63504. The interval's lower bound:
    // 1 − √(4 × ((1 − 0.5655) / 2)²), 0.5655 being Wilson's lower bound of 5 of 5.
    expect(lines[0]!.p_value).to.be.closeTo(2 / 63504, 1e-15);
    expect(lines[0]).to.deep.include({ test: 'cmh_exact', difference: 1, significant: true });
    expect(lines[0]!.text).to.equal(
      'with_skill opens a draft PR at hand over in 100% vs 0% of runs, within evals +100 pts [57, 100], p < 0.001; stratified by 2 evals: Mantel-Haenszel difference, exact CMH p',
    );
    expect(lines[0]!.stratified!.per_eval.map((e) => e.text)).to.deep.equal([
      'a: 100% vs 0% of runs (5/5 vs 0/5), +100 pts [39, 100], p 0.0079',
      'b: 100% vs 0% of runs (5/5 vs 0/5), +100 pts [39, 100], p 0.0079',
    ]);
  });

  it("says plainly when pooling over evals turns the difference over (Simpson's paradox)", () => {
    // easy: 9 of 10 against 2 of 2; hard: 0 of 2 against 1 of 10. Pooled 9/12 against 3/12,
    // +50 pts; within each eval −10 pts. S's weights 100, 40, 4 at S = 9, 10, 11: S = 9, p 1.
    const lines = campaign({
      easy: { without_skill: [2, 2], with_skill: [10, 9] },
      hard: { without_skill: [10, 1], with_skill: [2, 0] },
    });
    expect(lines).to.have.length(1);
    const v = lines[0]!;
    expect(v).to.deep.include({ condition_rate: 0.75, baseline_rate: 0.25, p_value: 1 });
    expect(v.difference).to.be.closeTo(-0.1, 1e-15);
    expect(v.stratified!.simpson).to.equal(true);
    expect(v.stratified!.pooled.difference).to.equal(0.5);
    expect(v.text).to.match(
      /^with_skill opens a draft PR at hand over in 75% vs 25% of runs, within evals −10 pts \[−32, 37\], p 1\.0 \(could be chance\); Simpson's paradox: pooled over the evals it reads \+50 pts, the other sign \(the two conditions' runs are spread differently over the evals\); with 12 runs per condition .* \(80% power, p < 0\.05, Fisher's test over the pooled runs\); stratified by 2 evals: Mantel-Haenszel difference, exact CMH p$/u,
    );
  });

  it('names an eval left out of the test, with runs of one condition only', () => {
    const lines = campaign({
      a: { without_skill: [5, 0], with_skill: [5, 5] },
      b: { without_skill: [5, 0], with_skill: [5, 5] },
      c: { without_skill: [0, 0], with_skill: [5, 5] },
    });
    expect(lines[0]!.stratified!.left_out).to.deep.equal(['c']);
    expect(lines[0]!.text).to.match(
      /; stratified by 2 evals: Mantel-Haenszel difference, exact CMH p \(left out, with runs of one condition only: c\)$/u,
    );
  });

  it('warns where the runs are too few, with the exact figures for 5, 10 and 30 runs', () => {
    const cmp = compare('b', group(5, 0), 'c', group(5, 5));
    const warn = (n: number) =>
      powerWarnings(
        [cmp],
        new Map([
          ['b', n],
          ['c', n],
        ]),
      );
    expect(warn(5)[0]!.text).to.equal(
      'with 5 runs per condition only differences of ≥ 84 pts can be detected (80% power, p < 0.05) when the baseline rate is 0% or 100%, and none when it is 50% (the hardest)',
    );
    expect(warn(10)[0]!.text).to.equal(
      'with 10 runs per condition only differences of ≥ 59 pts can be detected (80% power, p < 0.05) when the baseline rate is 0% or 100%, and none when it is 50% (the hardest)',
    );
    // At 20 and 30 runs a baseline of 25% is harder than one of 50% (48 and 38 pts against 42 and 36).
    expect(warn(20)[0]).to.deep.include({ worst_baseline: 0.25 });
    expect(warn(20)[0]!.detectable_at_worst).to.be.greaterThan(warn(20)[0]!.detectable_at_50!);
    expect(warn(30)[0]!.text).to.equal(
      'with 30 runs per condition only differences of ≥ 26 pts can be detected (80% power, p < 0.05) when the baseline rate is 0% or 100%, and ≥ 39 pts when it is 25% or 75% (the hardest)',
    );
    // Enough runs for 20 pts at the hardest baseline: no warning.
    expect(warn(120)).to.deep.equal([]);
  });
});
