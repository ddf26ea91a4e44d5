import { expect } from 'chai';
import type { RunMeasures } from '../../../src/artifacts/index.js';
import {
  compareRates,
  gradingMeasures,
  groupMeasures,
  pairGroups,
  smallestDetectable,
  type NumberComparison,
  type RateComparison,
} from '../../../src/compare/index.js';
import { GroupAccumulator } from '../../../src/report/benchmark.js';
import type { BenchmarkFile } from '../../../src/report/index.js';
import { newcombeDifference } from '../../../src/report/index.js';

const IDLE: RunMeasures = {
  pr_draft_at_hand_over: false,
  pr_described: null,
  pr_refreshed: null,
  pr_marked_ready: false,
  gh_not_played: 0,
  environment_broken: false,
  record_tampered: false,
  checks_passed: true,
  files_changed: 1,
  lines_added: 1,
  lines_removed: 0,
  turns: 1,
  duration_s: 10,
};

/** The stats of a group of runs, aggregated by the report's own accumulator. */
function stats(runs: ReadonlyArray<Partial<RunMeasures>>) {
  const acc = new GroupAccumulator();
  for (const m of runs) acc.add({ status: 'completed', measures: { ...IDLE, ...m } });
  return acc.stats();
}

/** A benchmark with the given groups: conditions overall, and (eval, condition) ones. */
function benchmark(
  conditions: Record<string, ReadonlyArray<Partial<RunMeasures>>>,
  evals: Record<string, Record<string, ReadonlyArray<Partial<RunMeasures>>>> = {},
): BenchmarkFile {
  return {
    conditions: Object.entries(conditions).map(([condition, runs]) => ({
      condition,
      ...stats(runs),
    })),
    evals: Object.entries(evals).flatMap(([e, byCondition]) =>
      Object.entries(byCondition).map(([condition, runs]) => ({
        eval: e,
        condition,
        ...stats(runs),
      })),
    ),
  } as unknown as BenchmarkFile;
}

const drafts = (yes: number, no: number) => [
  ...Array.from({ length: yes }, () => ({ pr_draft_at_hand_over: true })),
  ...Array.from({ length: no }, () => ({ pr_draft_at_hand_over: false })),
];

describe('compare: pairing two campaigns measure by measure', () => {
  it('gives B − A for a rate, with Newcombe on (B, A) and Fisher on the 2x2 table', () => {
    const a = benchmark({ with_skill: drafts(0, 10) });
    const b = benchmark({ with_skill: drafts(10, 0) });
    const { groups } = pairGroups(a, b);
    const m = groups[0]!.measures.find(
      (x) => x.measure === 'pr_draft_at_hand_over',
    ) as RateComparison;
    expect(m.a).to.deep.equal({ rate: 0, successes: 0, n: 10 });
    expect(m.b).to.deep.equal({ rate: 1, successes: 10, n: 10 });
    expect(m.difference).to.equal(1);
    // Newcombe 1998, table II: 10/10 against 0/10 is [0.6076, 1].
    expect(m.ci95![0]).to.be.closeTo(0.6076, 1e-4);
    expect(m.ci95![1]).to.equal(1);
    expect(m.p_value).to.be.closeTo(1.0825e-5, 1e-8);
    const reverse = pairGroups(b, a).groups[0]!.measures.find(
      (x) => x.measure === 'pr_draft_at_hand_over',
    ) as RateComparison;
    expect(reverse.difference).to.equal(-1);
    expect(reverse.ci95![0]).to.equal(-1);
    expect(reverse.ci95![1]).to.be.closeTo(-0.6076, 1e-4);
  });

  it('matches newcombeDifference(b, a) on an uneven pair', () => {
    const m = compareRates(
      'x',
      { rate: 48 / 80, successes: 48, n: 80 },
      { rate: 56 / 70, successes: 56, n: 70 },
    );
    expect(m.ci95).to.deep.equal(newcombeDifference(56, 70, 48, 80));
    expect(m.ci95![0]).to.be.closeTo(0.0524, 1e-4);
    expect(m.ci95![1]).to.be.closeTo(0.3339, 1e-4);
  });

  it('says nothing (null, never 0) where a side has n 0', () => {
    const a = benchmark({ c: [{ pr_described: null }, { pr_described: null }] });
    const b = benchmark({ c: [{ pr_described: true }, { pr_described: false }] });
    const m = pairGroups(a, b).groups[0]!.measures.find((x) => x.measure === 'pr_described')!;
    expect(m).to.deep.include({ difference: null, ci95: null, p_value: null });
    expect(m.b).to.deep.equal({ rate: 0.5, successes: 1, n: 2 });
  });

  it("gives numbers their difference of means with Welch's interval", () => {
    const a = benchmark({ c: [{ files_changed: 1 }, { files_changed: 3 }] });
    const b = benchmark({ c: [{ files_changed: 4 }, { files_changed: 6 }, { files_changed: 5 }] });
    const m = pairGroups(a, b).groups[0]!.measures.find(
      (x) => x.measure === 'files_changed',
    ) as NumberComparison;
    expect(m.a).to.deep.include({ mean: 2, n: 2 });
    expect(m.b).to.deep.include({ mean: 5, n: 3 });
    expect(m.difference).to.equal(3);
    // va = 2/2, vb = 1/3, df = (4/3)^2 / (1/1 + (1/9)/2) = 1.6842; scipy: 3 ± t.ppf(0.975, df) * sqrt(4/3).
    expect(m.df).to.be.closeTo(1.6842105, 1e-6);
    expect(m.ci95![0]).to.be.closeTo(-2.976997, 1e-5);
    expect(m.ci95![1]).to.be.closeTo(8.976997, 1e-5);
  });

  it('pairs conditions overall, then (eval, condition), and lists those of one side only', () => {
    const a = benchmark(
      { without_skill: drafts(1, 1), with_skill: drafts(2, 0) },
      {
        e1: { without_skill: drafts(1, 1), with_skill: drafts(2, 0) },
        gone: { with_skill: drafts(1, 0) },
      },
    );
    const b = benchmark(
      { with_skill: drafts(0, 2), with_skill_v2: drafts(1, 1), without_skill: drafts(1, 1) },
      { e1: { with_skill: drafts(0, 2), without_skill: drafts(1, 1) } },
    );
    const { groups, oneSided } = pairGroups(a, b);
    expect(groups.map((g) => `${g.eval ?? '*'}/${g.condition}`)).to.deep.equal([
      '*/without_skill',
      '*/with_skill',
      'e1/without_skill',
      'e1/with_skill',
    ]);
    expect(oneSided).to.deep.equal([
      { eval: null, condition: 'with_skill_v2', only: 'b', runs: 2 },
      { eval: 'gone', condition: 'with_skill', only: 'a', runs: 1 },
    ]);
  });

  it('reads measures by their shape: a family one side lacks is listed on that side, not dropped', () => {
    const a = benchmark({ c: drafts(1, 1) });
    const b = benchmark({ c: drafts(2, 0) });
    const grading = {
      message_checks: { no_missing_gh: { rate: 1, successes: 2, n: 2, ci95: [0.34, 1] } },
      expectations: { rate: 0.5, successes: 1, n: 2, ci95: [0.09, 0.9] },
      judge_seconds: { mean: 3, stddev: 1, min: 2, max: 4, n: 2 },
    };
    (b.conditions[0] as unknown as Record<string, unknown>).grading = grading;
    expect([...groupMeasures(b.conditions[0]!).keys()]).to.include.members([
      'pr_draft_at_hand_over',
      'agent.tokens_in',
      'grading.message_checks.no_missing_gh',
      'grading.expectations',
      'grading.judge_seconds',
    ]);
    const g = pairGroups(a, b).groups[0]!;
    expect(g.one_sided).to.deep.equal([
      { measure: 'grading.message_checks.no_missing_gh', kind: 'rate', only: 'b' },
      { measure: 'grading.expectations', kind: 'rate', only: 'b' },
      { measure: 'grading.judge_seconds', kind: 'number', only: 'b' },
    ]);
    (a.conditions[0] as unknown as Record<string, unknown>).grading = grading;
    const both = pairGroups(a, b).groups[0]!;
    expect(both.one_sided).to.deep.equal([]);
    expect(both.measures.find((m) => m.measure === 'grading.expectations')).to.deep.include({
      difference: 0,
    });
  });

  it('says how small a difference of rates the runs could detect, at the easiest and hardest rates', () => {
    const a = benchmark({ c: drafts(5, 5) });
    const b = benchmark({ c: drafts(10, 0) });
    // minimumDetectableDifference's values: 10 and 10 runs detect 58.1 pts from 0%, nothing from 50%.
    expect(pairGroups(a, b).groups[0]!.smallest_detectable).to.deep.equal({
      n_a: 10,
      n_b: 10,
      from_edge: smallestDetectable(10, 10)!.from_edge,
      from_half: null,
      worst: { rate_a: 0.5, difference: null },
    });
    expect(smallestDetectable(10, 10)!.from_edge).to.be.closeTo(0.5809, 1e-4);
    expect(smallestDetectable(30, 30)!.from_half).to.be.closeTo(0.357, 1e-4);
    // 50% is not the hardest rate at 30 runs a side: 25% is.
    expect(smallestDetectable(30, 30)!.worst.rate_a).to.equal(0.25);
    expect(smallestDetectable(30, 30)!.worst.difference).to.be.closeTo(0.3816, 1e-3);
    expect(smallestDetectable(2, 2)).to.deep.equal({
      n_a: 2,
      n_b: 2,
      from_edge: null,
      from_half: null,
      worst: { rate_a: 0.5, difference: null },
    });
    expect(smallestDetectable(0, 10)).to.equal(null);
    expect(smallestDetectable(101, 10), 'not computed past 100 runs a side').to.equal(null);
  });

  it("pairs the judge's measures, kept beside the groups in benchmark.json's grading", () => {
    const rate = (successes: number, n: number) => ({
      rate: successes / n,
      successes,
      n,
      ci95: [0, 1],
    });
    const grading = (passed: number) => ({
      judges: [
        { model: 'judge', source: 'script', rubric: 'v1', rubric_sha256: '3'.repeat(64), runs: 2 },
      ],
      conditions: [
        {
          condition: 'with_skill',
          graded: 2,
          errors: 0,
          without_grading: 0,
          all_passed: rate(passed, 2),
          expectations: rate(passed + 2, 4),
          expectations_passed: { mean: 0.75, stddev: 0.35, min: 0.5, max: 1, n: 2 },
        },
      ],
      expectations: [
        {
          eval: 'e1',
          condition: 'with_skill',
          expectation: 'opens a draft',
          stats: rate(passed, 2),
        },
      ],
      evals: [{ eval: 'e1', condition: 'with_skill', all_passed: rate(passed, 2) }],
      comparisons: [],
      blind: {
        conditions: ['with_skill', 'without_skill'],
        judged: 2,
        ties: 0,
        errors: 0,
        wins: [{ condition: 'with_skill', stats: rate(passed, 2) }],
      },
    });
    const a = benchmark({ with_skill: drafts(1, 1) }, { e1: { with_skill: drafts(1, 1) } });
    const b = benchmark({ with_skill: drafts(2, 0) }, { e1: { with_skill: drafts(2, 0) } });
    (a as unknown as Record<string, unknown>).grading = grading(0);
    (b as unknown as Record<string, unknown>).grading = grading(2);
    expect([...gradingMeasures(a).keys()]).to.deep.equal([
      '[null,"with_skill"]',
      '["e1","with_skill"]',
    ]);
    const { groups } = pairGroups(a, b);
    const overall = groups.find((g) => g.eval === null)!;
    const byName = new Map(overall.measures.map((m) => [m.measure, m]));
    expect(byName.get('grading.all_passed')).to.deep.include({ difference: 1, kind: 'rate' });
    expect(byName.get('grading.expectations')).to.deep.include({ difference: 0.5 });
    expect(byName.get('grading.expectations_passed')).to.deep.include({
      difference: 0,
      kind: 'number',
    });
    expect(byName.get('grading.blind_wins')).to.deep.include({ difference: 1 });
    const e1 = groups.find((g) => g.eval === 'e1')!;
    expect(
      e1.measures.find((m) => m.measure === 'grading.expectation: opens a draft'),
    ).to.deep.include({
      difference: 1,
    });
    // Runs meeting every expectation, per eval too: what the gate tests within evals.
    expect(e1.measures.find((m) => m.measure === 'grading.all_passed')).to.deep.include({
      difference: 1,
      kind: 'rate',
    });
    // Graded on one side only: every judge measure listed as B's, none dropped.
    delete (a as unknown as Record<string, unknown>).grading;
    const oneSided = pairGroups(a, b).groups.flatMap((g) =>
      g.one_sided.map((m) => `${m.measure}/${m.only}`),
    );
    expect(oneSided).to.deep.equal([
      'grading.all_passed/b',
      'grading.expectations/b',
      'grading.expectations_passed/b',
      'grading.blind_wins/b',
      'grading.all_passed/b',
      'grading.expectation: opens a draft/b',
    ]);
  });
});
