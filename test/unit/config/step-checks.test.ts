import { expect } from 'chai';
import { normalizeStepChecks, stepCheckProblems } from '../../../src/config/step-checks.js';

describe('config/step-checks', () => {
  it('says what is wrong with each check, at its JSON pointer', () => {
    const problems = stepCheckProblems({
      step_checks: [
        { name: 'a' },
        { name: 'b', ran: 'x', never: 'y' },
        { name: 'c', never: 'x', before_last: 'y' },
        { name: 'd', ran: '(' },
        { name: 'a', read: 'SKILL' },
      ],
    });
    expect(problems.map((p) => `${p.pointer}: ${p.message}`)).to.deep.equal([
      '/step_checks/0: names no rule: give one of "ran", "never" or "read"',
      '/step_checks/1: names "ran" and "never": give one rule a check',
      '/step_checks/2/before_last: goes with "ran" only',
      '/step_checks/3/ran: not a valid regular expression: /(/u: Unterminated group',
      '/step_checks/4/name: duplicate step check "a", also /step_checks/0/name',
    ]);
  });

  it('says the rule in words when the eval set gives no description', () => {
    const [c] = normalizeStepChecks([
      { name: 't', ran: '^npm test', succeeded: true, before_last: '^git commit' },
    ]);
    expect(c!.description).to.equal(
      'ran /^npm test/ and it succeeded before the last /^git commit/',
    );
  });
});
