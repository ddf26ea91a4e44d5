import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { EvalSetError, loadEvalSet, type EvalSet } from '../../../src/config/index.js';

describe('config: message checks', () => {
  const temps: string[] = [];
  after(async () => {
    await Promise.all(temps.map((d) => rm(d, { recursive: true, force: true })));
  });

  async function load(doc: Record<string, unknown>): Promise<EvalSet> {
    const dir = await mkdtemp(path.join(tmpdir(), 'evalrig-message-checks-'));
    temps.push(dir);
    const file = path.join(dir, 'evals.json');
    await writeFile(file, JSON.stringify({ name: 's', agent: { command: ['a'] }, ...doc }));
    return loadEvalSet(file);
  }

  async function problems(doc: Record<string, unknown>): Promise<EvalSetError> {
    try {
      await load(doc);
    } catch (error) {
      expect(error).to.be.instanceOf(EvalSetError);
      return error as EvalSetError;
    }
    return expect.fail('the eval set was accepted');
  }

  const says = (name: string, rule: Record<string, string>, stops?: string) => ({
    name,
    ...(stops ? { stops } : {}),
    rule,
  });

  it('turns no_missing_gh on by default, reading every stop', async () => {
    const set = await load({ evals: [{ id: 'e', prompt: 'p' }] });
    expect(set.evals[0]!.message_checks.map((c) => [c.name, c.stops])).to.deep.equal([
      ['no_missing_gh', 'every'],
    ]);
  });

  it("adds the set's checks, then the eval's, stops defaulting to every", async () => {
    const set = await load({
      message_checks: [says('says_draft', { matches: 'draft', flags: 'i' }, 'hand_over')],
      evals: [
        { id: 'a', prompt: 'p', message_checks: [says('no_sorry', { not_contains: 'sorry' })] },
        { id: 'b', prompt: 'p' },
      ],
    });
    expect(set.evals[0]!.message_checks.map((c) => c.name)).to.deep.equal([
      'no_missing_gh',
      'says_draft',
      'no_sorry',
    ]);
    expect(set.evals[0]!.message_checks[2]).to.deep.equal({
      name: 'no_sorry',
      stops: 'every',
      rule: { not_contains: 'sorry' },
    });
    expect(set.evals[1]!.message_checks.map((c) => c.name)).to.deep.equal([
      'no_missing_gh',
      'says_draft',
    ]);
  });

  it('lets an eval set switch the built-in off', async () => {
    const set = await load({ builtin_message_checks: [], evals: [{ id: 'e', prompt: 'p' }] });
    expect(set.evals[0]!.message_checks).to.deep.equal([]);
  });

  it('refuses a regular expression that does not compile, at its pointer', async () => {
    const error = await problems({
      evals: [
        { id: 'e', prompt: 'p', message_checks: [says('bad', { matches: 'gh (not' }, 'last')] },
      ],
    });
    expect(error.problems).to.have.length(1);
    expect(error.problems[0]!.pointer).to.equal('/evals/0/message_checks/0/rule/matches');
    expect(error.problems[0]!.message).to.match(/^not a valid regular expression: .*gh \(not/);
    expect(error.message).to.contain('evals.json#/evals/0/message_checks/0/rule/matches');
  });

  it('refuses stateful or unknown flags, and a rule of no known kind', async () => {
    const error = await problems({
      message_checks: [
        says('a', { matches: 'x', flags: 'g' }),
        says('b', { matches: 'x', flags: 'ii' }),
        says('c', { starts_with: 'x' }),
        { name: 'd', stops: 'first', rule: { contains: 'x' } },
      ],
      evals: [{ id: 'e', prompt: 'p' }],
    });
    const at = error.problems.map((p) => p.pointer);
    expect(at).to.include('/message_checks/0/rule/flags');
    expect(at).to.include('/message_checks/1/rule/flags');
    expect(at.some((p) => p.startsWith('/message_checks/2/rule'))).to.equal(true);
    expect(at).to.include('/message_checks/3/stops');
  });

  it('refuses a name used twice, the built-in included', async () => {
    const error = await problems({
      message_checks: [says('no_missing_gh', { contains: 'x' }), says('mine', { contains: 'x' })],
      evals: [{ id: 'e', prompt: 'p', message_checks: [says('mine', { contains: 'y' })] }],
    });
    expect(error.problems.map((p) => [p.pointer, p.message])).to.deep.equal([
      ['/message_checks/0/name', 'duplicate message check "no_missing_gh", also a built-in check'],
      [
        '/evals/0/message_checks/0/name',
        'duplicate message check "mine", also at /message_checks/1/name',
      ],
    ]);
  });
});
