import { expect } from 'chai';
import { passesStepCheck } from '../../../src/behaviour/index.js';
import type { StepCheck } from '../../../src/config/step-checks.js';
import type { BehaviourSection } from '../../../src/report/behaviour.js';
import { compare, GroupAccumulator } from '../../../src/report/benchmark.js';
import { RateAccumulator } from '../../../src/report/stats.js';
import { formatVerdictP, phraseOf, verdicts } from '../../../src/report/verdict.js';
import { newcombe } from '../../support/interaction-check.js';

const LINT: StepCheck = {
  name: 'ran_lint',
  description: 'ran /npm run lint/',
  ran: 'npm run lint',
};

/** The behaviour section's figures of one condition: `lint` of `n` runs ran the linter. */
function condition(name: string, n: number, lint: number) {
  const acc = new RateAccumulator();
  for (let i = 0; i < n; i++) {
    const commands = [{ text: i < lint ? 'npm run lint' : 'npm test', ok: true }];
    acc.add(passesStepCheck(LINT, { commands, reads: [] }));
  }
  return { condition: name, runs: n, rates: { 'step.ran_lint': acc.stats() }, counts: {} };
}

describe('report: a verdict line per step check (step_checks.<name>)', () => {
  it("says a step check's difference like any rate's, from the behaviour section's rates", () => {
    const behaviour: BehaviourSection = {
      conditions: [condition('without_skill', 10, 1), condition('with_skill', 10, 8)],
      differences: [],
      sentences: [],
    };
    // The host's measures do not differ: the step check's is the only line.
    const acc = new GroupAccumulator();
    const same = acc.stats();
    const cmp = compare('without_skill', same, 'with_skill', same);
    const groups = new Map([
      ['without_skill', same],
      ['with_skill', same],
    ]);
    const lines = verdicts([cmp], groups, undefined, [], behaviour);
    expect(lines.map((v) => v.measure)).to.deep.equal(['step_checks.ran_lint']);
    const [, lo, hi] = newcombe(8, 10, 1, 10);
    expect(lines[0]).to.deep.include({
      condition_rate: 0.8,
      baseline_rate: 0.1,
      condition_n: 10,
      baseline_n: 10,
      test: 'fisher_exact',
    });
    // Pooled over the evals: the behaviour section keeps no per-eval figures to stratify by.
    expect(lines[0]).not.to.have.property('stratified');
    expect(lines[0]!.text).to.equal(
      `with_skill passes step check ran_lint in 80% vs 10% of runs, +70 pts [${(lo * 100).toFixed(0)}, ${(hi * 100).toFixed(0)}], ${formatVerdictP(lines[0]!.p_value)}`,
    );
    expect(phraseOf('step_checks.ran_lint')).to.equal('passes step check ran_lint');
  });

  it('gives no line without both conditions in the behaviour section, or with equal rates', () => {
    const same = new GroupAccumulator().stats();
    const cmp = compare('without_skill', same, 'with_skill', same);
    const groups = new Map([
      ['without_skill', same],
      ['with_skill', same],
    ]);
    const one: BehaviourSection = {
      conditions: [condition('with_skill', 10, 8)],
      differences: [],
      sentences: [],
    };
    expect(verdicts([cmp], groups, undefined, [], one)).to.deep.equal([]);
    const equal: BehaviourSection = {
      conditions: [condition('without_skill', 10, 4), condition('with_skill', 10, 4)],
      differences: [],
      sentences: [],
    };
    expect(verdicts([cmp], groups, undefined, [], equal)).to.deep.equal([]);
  });
});
