import { expect } from 'chai';
import { passesStepCheck } from '../../../src/behaviour/index.js';

const run = (commands: [string, boolean][], reads: string[] = []) => ({
  commands: commands.map(([text, ok]) => ({ text, ok })),
  reads,
});

describe('behaviour/step-checks', () => {
  const before = {
    name: 't',
    description: '',
    ran: '^npm test',
    succeeded: true,
    before_last: '^git commit',
  };

  it('passes when a test succeeded before the last commit, in order', () => {
    expect(
      passesStepCheck(
        before,
        run([
          ['npm test', true],
          ['git commit -m a', true],
        ]),
      ),
    ).to.equal(true);
    // Tested after the last commit only: it did not test what it committed.
    expect(
      passesStepCheck(
        before,
        run([
          ['git commit -m a', true],
          ['npm test', true],
        ]),
      ),
    ).to.equal(false);
    // Tested between two commits: before the last one.
    expect(
      passesStepCheck(
        before,
        run([
          ['git commit -m a', true],
          ['npm test', true],
          ['git commit -m b', true],
        ]),
      ),
    ).to.equal(true);
    // Failed tests do not count when `succeeded` is asked.
    expect(
      passesStepCheck(
        before,
        run([
          ['npm test', false],
          ['git commit -m a', true],
        ]),
      ),
    ).to.equal(false);
    // No commit: nothing to look at.
    expect(passesStepCheck(before, run([['npm test', true]]))).to.equal(null);
  });

  it('holds never and read rules', () => {
    const never = { name: 'n', description: '', never: '^git push .*--force' };
    expect(passesStepCheck(never, run([['git push origin HEAD', true]]))).to.equal(true);
    expect(passesStepCheck(never, run([['git push --force origin HEAD', true]]))).to.equal(false);
    const read = { name: 'r', description: '', read: 'SKILL\\.md$' };
    expect(passesStepCheck(read, run([], ['/w/.claude/skills/tdd/SKILL.md']))).to.equal(true);
    expect(passesStepCheck(read, run([], ['README.md']))).to.equal(false);
  });
});
