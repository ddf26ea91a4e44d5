import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { rewriteBudgetOf, rewriterOf } from '../../../src/cli/commands/tasks-rewrite.js';
import { InputError } from '../../../src/errors/index.js';

// Each answer bills 400k input tokens: 0.40 USD at claude-haiku-4-5's list price (1 USD/M).
const SCRIPT = {
  responses: [
    {
      content: [{ text: 'Options are parsed wrongly\n\nSome flags lose their value.' }],
      usage: { input_tokens: 400_000, output_tokens: 0 },
    },
  ],
};

describe('tasks from-history --rewrite: its budget, enforced by the gateway', function () {
  this.timeout(30_000);
  let work: string;
  let script: string;
  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'evalrig-rewrite-'));
    script = path.join(work, 'model.json');
    await writeFile(script, JSON.stringify(SCRIPT));
  });
  after(() => rm(work, { recursive: true, force: true }));

  const log = async (id: string) =>
    (await readFile(path.join(work, 'rewrites', id, 'judge-calls.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { status: number });

  it('answers until the next call would pass the budget, then the gateway refuses it', async () => {
    const ask = await rewriterOf(
      { rewrite: script, rewriteModel: 'claude-haiku-4-5', rewriteMaxCost: '0.5' },
      path.join(work, 'rewrites'),
    );
    const first = await ask('c-1', 'system', 'question');
    expect(first.text).to.match(/^Options are parsed wrongly/u);
    expect(first.error).to.equal(undefined);
    // 0.40 spent; another 0.40 would make 0.80, over 0.50: refused before the stand-in sees it.
    const second = await ask('c-2', 'system', 'question');
    expect(second.text).to.equal(null);
    expect(second.error).to.match(/status 403 .*would pass its budget of 0\.5000 USD/u);
    expect((await log('c-1')).map((c) => c.status)).to.deep.equal([200]);
    expect((await log('c-2')).map((c) => c.status)).to.deep.equal([403]);
  });

  it('without a budget, every call is answered', async () => {
    const ask = await rewriterOf(
      { rewrite: script, rewriteModel: 'claude-haiku-4-5' },
      path.join(work, 'free'),
    );
    for (const id of ['a', 'b', 'c']) expect((await ask(id, 's', 'q')).text).to.be.a('string');
  });

  it('refuses a budget that is not USD above 0, naming the flag', () => {
    expect(rewriteBudgetOf(undefined)).to.equal(undefined);
    expect(rewriteBudgetOf('0.25')).to.equal(0.25);
    for (const bad of ['0', '-1', 'ten'])
      expect(() => rewriteBudgetOf(bad))
        .to.throw(InputError)
        .with.property('message')
        .that.matches(/^--rewrite-max-cost must be a number of USD above 0/u);
  });
});
