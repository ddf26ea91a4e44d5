import { expect } from 'chai';
import type { RunMeasures } from '../../../src/artifacts/index.js';
import {
  betterDirection,
  gateMeasures,
  pairGroups,
  worseOn,
  type CompareFile,
} from '../../../src/compare/index.js';
import { InputError } from '../../../src/errors/index.js';
import { GroupAccumulator } from '../../../src/report/benchmark.js';
import type { BenchmarkFile } from '../../../src/report/index.js';

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

/** A campaign's benchmark with one condition `c` of these runs. */
function benchmark(runs: ReadonlyArray<Partial<RunMeasures>>): BenchmarkFile {
  const acc = new GroupAccumulator();
  for (const m of runs) acc.add({ status: 'completed', measures: { ...IDLE, ...m } });
  return {
    conditions: [{ condition: 'c', ...acc.stats() }],
    evals: [],
  } as unknown as BenchmarkFile;
}

/** A campaign's benchmark with one condition `c`, its runs in evals by name. */
function byEval(evals: Record<string, ReadonlyArray<Partial<RunMeasures>>>): BenchmarkFile {
  const overall = new GroupAccumulator();
  const groups = Object.entries(evals).map(([evalId, runs]) => {
    const acc = new GroupAccumulator();
    for (const m of runs) {
      acc.add({ status: 'completed', measures: { ...IDLE, ...m } });
      overall.add({ status: 'completed', measures: { ...IDLE, ...m } });
    }
    return { eval: evalId, condition: 'c', ...acc.stats() };
  });
  return {
    conditions: [{ condition: 'c', ...overall.stats() }],
    evals: groups,
  } as unknown as BenchmarkFile;
}

function comparison(a: BenchmarkFile, b: BenchmarkFile): CompareFile {
  const { groups } = pairGroups(a, b);
  return { groups, a: { dir: '/out/a' }, b: { dir: '/out/b' } } as unknown as CompareFile;
}

const runs = (n: number, m: Partial<RunMeasures>) => Array.from({ length: n }, () => m);
const checks = (passed: number, failed: number) => [
  ...runs(passed, { checks_passed: true }),
  ...runs(failed, { checks_passed: false }),
];

describe('compare --fail-if-worse: is B worse than A, beyond chance?', () => {
  it('knows which way each measure is better, message checks and expectations included', () => {
    expect(betterDirection('checks_passed')).to.equal('higher');
    expect(betterDirection('record_tampered')).to.equal('lower');
    expect(betterDirection('agent.cost_usd')).to.equal('lower');
    expect(betterDirection('agent.tool_calls_refused')).to.equal('lower');
    expect(betterDirection('message_checks.says_draft')).to.equal('higher');
    expect(betterDirection('checks.tests')).to.equal('higher');
    expect(betterDirection('grading.expectation: It adds multiply.')).to.equal('higher');
    expect(betterDirection('lines_added')).to.equal(undefined);
  });

  it('refuses a measure it cannot gate, naming the flag, before anything is read', () => {
    expect(gateMeasures(['checks_passed,agent.cost_usd', 'checks_passed'])).to.deep.equal([
      'checks_passed',
      'agent.cost_usd',
    ]);
    for (const [value, message] of [
      [
        'check_passed',
        /^--fail-if-worse: "check_passed" is no measure evalrig knows which way is better; measures: pr_draft_at_hand_over, /u,
      ],
      ['lines_added', /^--fail-if-worse: "lines_added" has no better direction to fail on/u],
      ['checks_passed,', /^--fail-if-worse needs measure names/u],
    ] as const) {
      expect(() => gateMeasures([value]))
        .to.throw(InputError)
        .with.property('message')
        .that.matches(message);
    }
  });

  it('fails a rate that fell with p < 0.05, decided exactly, and not one that fell by chance', () => {
    const worse = worseOn(comparison(benchmark(checks(10, 0)), benchmark(checks(4, 6))), [
      'checks_passed',
    ]);
    expect(worse.worse.map((w) => w.text)).to.deep.equal([
      'B is worse than A on checks passed (checks_passed), condition c: −60.0 pts [−83.2, −20.1], p 0.0108 (higher is better)',
    ]);
    // 12 of 12 against 10 of 12 could be chance; and B better is never worse.
    expect(
      worseOn(comparison(benchmark(checks(12, 0)), benchmark(checks(10, 2))), ['checks_passed'])
        .worse,
    ).to.deep.equal([]);
    expect(
      worseOn(comparison(benchmark(checks(4, 6)), benchmark(checks(10, 0))), ['checks_passed'])
        .worse,
    ).to.deep.equal([]);
  });

  it('does not fail at p exactly 1/20: 2 of 4 passing against 12 of 12', () => {
    // Fisher's p of [[2, 2], [12, 0]] is 1/20 exactly: not below 0.05, however it rounds.
    const a = benchmark(checks(12, 0));
    const b = benchmark(checks(2, 2));
    expect(worseOn(comparison(a, b), ['checks_passed']).worse).to.deep.equal([]);
  });

  it("fails a number that rose when lower is better, when Welch's interval leaves 0 out", () => {
    const durations = (values: number[]) => values.map((duration_s) => ({ duration_s }));
    const a = benchmark(durations([10, 11, 9, 10, 10]));
    const slower = benchmark(durations([20, 21, 19, 22, 20]));
    const [found] = worseOn(comparison(a, slower), ['duration_s']).worse;
    expect(found!.text).to.match(
      /^B is worse than A on duration \(s\) \(duration_s\), condition c: \+10\.4 \[[\d.]+, [\d.]+\] \(lower is better\)$/u,
    );
    const noisy = benchmark(durations([5, 30, 2, 25, 1]));
    expect(worseOn(comparison(a, noisy), ['duration_s']).worse).to.deep.equal([]);
    // One run a side: nothing can be told, and the gate says so rather than pass in silence.
    const one = worseOn(comparison(benchmark(durations([10])), benchmark(durations([20]))), [
      'duration_s',
    ]);
    expect(one.worse).to.deep.equal([]);
    expect(one.notes).to.deep.equal([
      'duration (s) (duration_s), condition c: cannot tell (too few runs a side)',
    ]);
  });

  it('tests a rate within the evals both campaigns ran, and says when pooling turns it over', () => {
    // easy: A passes 10 of 10, B 28 of 40; hard: A 8 of 40, B 0 of 10. B is worse in each
    // eval, yet pooled it reads 28 of 50 against 18 of 50: better by 20 pts.
    const a = byEval({ easy: checks(10, 0), hard: checks(8, 32) });
    const b = byEval({ easy: checks(28, 12), hard: checks(0, 10) });
    const { worse, notes } = worseOn(comparison(a, b), ['checks_passed']);
    expect(notes).to.deep.equal([]);
    expect(worse).to.have.length(1);
    expect(worse[0]!.text).to.match(
      /^B is worse than A on checks passed \(checks_passed\), condition c: within 2 evals −2\d\.\d pts \[−\d+\.\d, −\d+\.\d\], exact CMH p 0\.0\d+; pooled over the evals \+20\.0 pts \[[^\]]+\], the other sign \(Simpson's paradox\) \(higher is better\)$/u,
    );
  });

  it('does not fail a rate worse only over the runs pooled across evals, and says so', () => {
    // Both campaigns pass 90% in easy and 10% in hard; B ran mostly hard: 13 of 50 against 37 of 50.
    const a = byEval({ easy: checks(36, 4), hard: checks(1, 9) });
    const b = byEval({ easy: checks(9, 1), hard: checks(4, 36) });
    const { worse, notes } = worseOn(comparison(a, b), ['checks_passed']);
    expect(worse).to.deep.equal([]);
    expect(notes).to.have.length(1);
    expect(notes[0]).to.match(
      /^checks passed \(checks_passed\), condition c: worse over the runs pooled across evals \(−48\.0 pts \[[^\]]+\], p <0\.0001\), not beyond chance within 2 evals ±0\.0 pts \[[^\]]+\], exact CMH p 1\.0000: not failed$/u,
    );
  });

  it('refuses a measure that no condition has on both sides', () => {
    const c = comparison(benchmark(checks(3, 0)), benchmark(checks(3, 0)));
    expect(() => worseOn(c, ['grading.all_passed'])).to.throw(
      InputError,
      '--fail-if-worse: no condition has "grading.all_passed" on both sides (A: /out/a, B: /out/b)',
    );
  });
});
