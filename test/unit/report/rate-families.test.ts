import { expect } from 'chai';
import {
  compare,
  GroupAccumulator,
  type GroupStats,
  type MeasuredRun,
} from '../../../src/report/benchmark.js';
import { namedRates, rateOf } from '../../../src/report/rate-families.js';
import { formatVerdictP, verdicts } from '../../../src/report/verdict.js';
import { checkedRun, checkResult } from '../../support/checked-runs.js';
import { newcombe } from '../../support/interaction-check.js';

const Z = 1.959963984540054;

/** Wilson's score interval from its closed form (not the report's code). */
function wilson(x: number, n: number): [number, number] {
  const p = x / n;
  const d = 1 + (Z * Z) / n;
  const centre = (p + (Z * Z) / (2 * n)) / d;
  const half = (Z / d) * Math.sqrt((p * (1 - p)) / n + (Z * Z) / (4 * n * n));
  return [centre - half, centre + half];
}

function choose(n: number, k: number): bigint {
  let r = 1n;
  for (let i = 1; i <= k; i++) r = (r * BigInt(n - k + i)) / BigInt(i);
  return r;
}

/** The hypergeometric weights of one 2×2 table's first cell, x1 + x2 successes over n1 + n2. */
function weights(n1: number, n2: number, successes: number): Map<number, bigint> {
  const w = new Map<number, bigint>();
  for (let a = Math.max(0, successes - n2); a <= Math.min(n1, successes); a++)
    w.set(a, choose(n1, a) * choose(n2, successes - a));
  return w;
}

/**
 * Two-sided exact p over strata of [x1, n1, x2, n2] (Fisher's with one): the weights of the sum
 * of the first cells, convolved in whole numbers; the tables as or less likely than the one seen.
 */
function exactP(strata: ReadonlyArray<[number, number, number, number]>): number {
  let dist = new Map<number, bigint>([[0, 1n]]);
  let seen = 0;
  for (const [x1, n1, x2, n2] of strata) {
    const next = new Map<number, bigint>();
    for (const [s, ws] of dist)
      for (const [a, wa] of weights(n1, n2, x1 + x2))
        next.set(s + a, (next.get(s + a) ?? 0n) + ws * wa);
    dist = next;
    seen += x1;
  }
  const total = [...dist.values()].reduce((a, b) => a + b, 0n);
  const observed = dist.get(seen)!;
  const tail = [...dist.values()].filter((w) => w <= observed).reduce((a, b) => a + b, 0n);
  return Number((tail * 10n ** 15n) / total) / 1e15;
}

/** `n` runs: `tests` passes in the first `tests` of them, `lint` fails in the runs listed. */
function runs(n: number, tests: number, lintFails: readonly number[] = []): MeasuredRun[] {
  return Array.from({ length: n }, (_, i) =>
    checkedRun([checkResult('tests', i < tests), checkResult('lint', !lintFails.includes(i))]),
  );
}

function group(rs: readonly MeasuredRun[], declared?: readonly string[]): GroupStats {
  const acc = new GroupAccumulator();
  for (const r of rs) acc.add(r, declared);
  return acc.stats();
}

function lines(base: GroupStats, other: GroupStats, evals = [] as Parameters<typeof verdicts>[3]) {
  const cmp = compare('without_skill', base, 'with_skill', other);
  const groups = new Map([
    ['without_skill', base],
    ['with_skill', other],
  ]);
  return { cmp, lines: verdicts([cmp], groups, undefined, evals) };
}

describe('report: each check its own rate and verdict (checks.<name>)', () => {
  // with_skill passes tests in 9 of 10 runs, lint fails in its 9th: checks_passed 8 of 10.
  // without_skill passes tests in 2 of 10, lint always: checks_passed 2 of 10.
  const other = group(runs(10, 9, [8]));
  const base = group(runs(10, 2));

  it('gives each check a rate with its Wilson interval, per condition', () => {
    expect(namedRates([base, other]).map((r) => r.measure)).to.deep.equal([
      'checks.tests',
      'checks.lint',
    ]);
    const tests = rateOf(other, { family: 'checks', name: 'tests' });
    expect(tests).to.include({ rate: 0.9, successes: 9, n: 10 });
    const [lo, hi] = wilson(9, 10);
    expect(tests.ci95![0]).to.be.closeTo(lo, 1e-12);
    expect(tests.ci95![1]).to.be.closeTo(hi, 1e-12);
    expect(base.checks!.tests).to.include({ successes: 2, n: 10 });
    expect(other.measures.checks_passed).to.include({ successes: 8, n: 10 });
  });

  it("compares each check: Newcombe's interval and Fisher's p, as computed apart", () => {
    const { cmp } = lines(base, other);
    const d = cmp.checks!.tests!;
    const [diff, lo, hi] = newcombe(9, 10, 2, 10);
    expect(d.difference).to.be.closeTo(diff, 1e-12);
    expect(d.ci95![0]).to.be.closeTo(lo, 1e-12);
    expect(d.ci95![1]).to.be.closeTo(hi, 1e-12);
    expect(d.p_value).to.be.closeTo(exactP([[9, 10, 2, 10]]), 1e-12);
  });

  it('says a line per check that differs, in plain words, beside the one of checks_passed', () => {
    const { lines: out } = lines(base, other);
    expect(out.map((v) => v.measure)).to.have.members([
      'checks.tests',
      'checks_passed',
      'checks.lint',
    ]);
    const tests = out.find((v) => v.measure === 'checks.tests')!;
    const [, lo, hi] = newcombe(9, 10, 2, 10);
    const p = exactP([[9, 10, 2, 10]]);
    expect(tests).to.deep.include({ significant: true, test: 'fisher_exact' });
    expect(tests.text).to.equal(
      `with_skill passes check tests in 90% vs 20% of runs, +70 pts [${(lo * 100).toFixed(0)}, ${(hi * 100).toFixed(0)}], ${formatVerdictP(p)}`,
    );
    const lint = out.find((v) => v.measure === 'checks.lint')!;
    expect(lint.significant).to.equal(false);
    expect(lint.text).to.match(/^with_skill passes check lint in 90% vs 100% of runs, −10 pts /u);
  });

  it('leaves out a check whose line would repeat the checks_passed line (one check)', () => {
    const one = (n: number, pass: number) =>
      group(Array.from({ length: n }, (_, i) => checkedRun([checkResult('tests', i < pass)])));
    const { cmp, lines: out } = lines(one(10, 2), one(10, 9));
    expect(out.map((v) => v.measure)).to.deep.equal(['checks_passed']);
    // benchmark.json keeps the check's own figures all the same.
    expect(cmp.checks!.tests!.difference).to.be.closeTo(0.7, 1e-12);
  });

  it("counts a run that ended before its checks ran as failing each of its eval's checks", () => {
    const cut = checkedRun([], { status: 'timed_out', failure: 'timeout' });
    const g = group([...runs(2, 2), cut], ['tests', 'lint']);
    expect(g.checks!.tests).to.include({ successes: 2, n: 3 });
    expect(g.checks!.lint).to.include({ successes: 2, n: 3 });
    expect(g.measures.checks_passed).to.include({ successes: 2, n: 3 });
    // A conditions.json of an older version names no checks: such a run adds nothing to them.
    expect(group([cut]).checks).to.deep.equal({});
  });

  it('tests a check within evals when two evals have runs of both conditions', () => {
    // easy: 5 of 5 vs 1 of 5; hard: 4 of 5 vs 1 of 5 (tests). lint fails once in easy under
    // with_skill, so that checks_passed's line is another line.
    const runsOf = {
      easy: { with_skill: runs(5, 5, [4]), without_skill: runs(5, 1) },
      hard: { with_skill: runs(5, 4), without_skill: runs(5, 1) },
    };
    const evals = Object.entries(runsOf).flatMap(([e, c]) =>
      Object.entries(c).map(([condition, rs]) => ({ eval: e, condition, ...group(rs) })),
    );
    const all = (c: 'with_skill' | 'without_skill') =>
      group([...runsOf.easy[c], ...runsOf.hard[c]]);
    const { lines: out } = lines(all('without_skill'), all('with_skill'), evals);
    const tests = out.find((v) => v.measure === 'checks.tests')!;
    expect(tests.test).to.equal('cmh_exact');
    expect(tests.p_value).to.be.closeTo(
      exactP([
        [5, 5, 1, 5],
        [4, 5, 1, 5],
      ]),
      1e-12,
    );
    expect(tests.stratified!.per_eval.map((e) => e.eval)).to.deep.equal(['easy', 'hard']);
    expect(tests.text).to.match(
      /^with_skill passes check tests in 90% vs 20% of runs, within evals \+70 pts .*; stratified by 2 evals: Mantel-Haenszel difference, exact CMH p$/u,
    );
  });
});
