import { expect } from 'chai';
import type { PlannedRun } from '../../../../src/campaign/plan.js';
import { reuseLine, type Decided, type ReuseSource } from '../../../../src/campaign/reuse/index.js';

const a: ReuseSource = { folder: 'out/first', dir: '/w/out/first', campaign: 'first' };
const b: ReuseSource = { folder: 'out/older', dir: '/w/out/older', campaign: 'older' };
const PLANNED = { eval: { id: 'add' }, key: 'add/c/run-01' } as unknown as PlannedRun;

/** The line the CLI says before anything plays. */
describe('reuse: what reuse decided, in one line per campaign', () => {
  it('says per condition what changed, what is reused, and from which folder when there are several', () => {
    const run = (condition: string, n: number) =>
      ({ ...PLANNED, condition: { name: condition }, run: n }) as unknown as PlannedRun;
    const reused = (source: ReuseSource) => ({ kind: 'reused', source }) as Decided['decision'];
    const decided: Decided[] = [
      {
        planned: run('with_skill', 1),
        decision: { kind: 'play', why: '.claude/skills/tdd/SKILL.md changed' },
      },
      {
        planned: run('with_skill', 2),
        decision: { kind: 'play', why: '.claude/skills/tdd/SKILL.md changed' },
      },
      { planned: run('without_skill', 1), decision: reused(a) },
      { planned: run('without_skill', 2), decision: reused(b) },
      { planned: run('without_skill', 3), decision: { kind: 'here' } },
    ];
    expect(reuseLine(decided, [a])).to.equal(
      'evalrig: reuse: with_skill: .claude/skills/tdd/SKILL.md changed: 2 to play; without_skill: unchanged: 2 reused, 1 finished here',
    );
    expect(reuseLine(decided, [a, b])).to.equal(
      `evalrig: reuse: with_skill: .claude/skills/tdd/SKILL.md changed: 2 to play; without_skill: unchanged: 2 reused (1 from ${a.folder}, 1 from ${b.folder}), 1 finished here`,
    );
  });
});
