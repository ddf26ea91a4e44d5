import { expect } from 'chai';
import { checkModelScript } from '../../../src/model-stand-in/index.js';
import { dryRun, responseSummary, tally } from '../../../src/script-dry-run/index.js';

const ask = (text: string) => ({ messages: [{ role: 'user', content: text }] });

describe('script dry run: a script against recorded requests', () => {
  const script = checkModelScript(
    {
      responses: [
        { when: { contains: ['eval: a'] }, content: [{ text: 'graded a' }] },
        { description: 'the default grade', content: [{ text: 'anything' }] },
        { content: [{ tool_use: { name: 'Bash', input: { command: 'ls' } } }] },
        { error: { status: 529 } },
      ],
    },
    'judge.json',
  );

  it('plays each session from the start, as each run gets its own stand-in', () => {
    const rows = dryRun(script, [
      { label: 'runs/a/c/run-01', requests: [{ seq: 1, body: ask('eval: a') }] },
      {
        label: 'runs/b/c/run-01',
        requests: [
          { seq: 1, body: ask('eval: b') },
          { seq: 2, body: ask('eval: b') },
          { seq: 3, body: null },
        ],
      },
    ]);
    expect(rows).to.deep.equal([
      { session: 'runs/a/c/run-01', seq: 1, response: 0, how: 'when', summary: 'graded a' },
      // eval: b fits no when while `eval: a` waits: the catch-all answers.
      {
        session: 'runs/b/c/run-01',
        seq: 1,
        response: 1,
        how: 'fallback',
        summary: 'the default grade',
      },
      { session: 'runs/b/c/run-01', seq: 2, response: 2, how: 'fallback', summary: '[Bash]' },
      { session: 'runs/b/c/run-01', seq: 3, response: null, how: 'unkept', summary: '' },
    ]);
    expect(tally(rows)).to.deep.equal({ when: 1, in_order: 0, fallback: 2, none: 0, unkept: 1 });
  });

  it('says when nothing fits, and sums up an error answer', () => {
    const rows = dryRun(script, [
      {
        label: 's',
        requests: [1, 2, 3, 4].map((seq) => ({ seq, body: ask('eval: a') })),
      },
    ]);
    expect(rows.map((r) => r.how)).to.deep.equal(['when', 'in_order', 'in_order', 'in_order']);
    expect(rows.map((r) => r.summary)[3]).to.equal('error 529');
    const none = dryRun(script, [
      { label: 's', requests: [1, 2, 3, 4, 5].map((seq) => ({ seq, body: ask('x') })) },
    ]);
    expect(none.at(-1)).to.deep.include({
      response: null,
      how: 'none',
      summary: 'no response fits: 400',
    });
    expect(responseSummary({ content: [{ text: 'x'.repeat(100) }] })).to.have.length(60);
  });
});
