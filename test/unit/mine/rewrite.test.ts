import { expect } from 'chai';
import type { Candidate } from '../../../src/mine/index.js';
import { rewriteQuestion, rewrittenPrompt } from '../../../src/mine/rewrite.js';

const c: Candidate = {
  commit: 'a'.repeat(40),
  parent: 'b'.repeat(40),
  subject: 'Fix long options',
  body: '',
  date: '2024-01-01T00:00:00Z',
  source: ['lib/parse.js'],
  tests: ['test/long.js'],
};
const PATCH = 'diff --git a/lib/parse.js b/lib/parse.js\n--- a/lib/parse.js\n+++ b/lib/parse.js\n';

describe("mine: a task's message rewritten by a model", () => {
  it('takes an answer that names no file of the solution', () => {
    const text = 'Long options followed by a dash are misread\n\nRun it with `--a -`.';
    expect(rewrittenPrompt(c, PATCH, text)).to.deep.equal({ prompt: text, source: 'rewrite' });
  });

  it("keeps the commit's message when the answer names a file of the change or of its tests, or is empty", () => {
    expect(rewrittenPrompt(c, PATCH, 'Fix parse.js to read dashes')).to.deep.equal({
      prompt: 'Fix long options',
      source: 'commit',
      refused: 'it names parse.js, of the solution',
    });
    expect(rewrittenPrompt(c, PATCH, 'see test/long.js').refused).to.equal(
      'it names test/long.js, of the solution',
    );
    expect(rewrittenPrompt(c, PATCH, '  ')).to.deep.include({
      source: 'commit',
      refused: 'no answer',
    });
    expect(rewrittenPrompt(c, PATCH, null).source).to.equal('commit');
    // A call the gateway refused (past the rewrite's budget): the report says why.
    expect(rewrittenPrompt(c, PATCH, null, 'status 403 budget spent')).to.deep.include({
      source: 'commit',
      refused: 'no answer: status 403 budget spent',
    });
  });

  it('frames the commit as data and cuts a long change', () => {
    const q = rewriteQuestion(c, `${PATCH}${'+x\n'.repeat(10_000)}`);
    expect(q.startsWith('<commit-message>\nFix long options\n</commit-message>')).to.equal(true);
    expect(q).to.include('[cut]');
    expect(q.length).to.be.below(17 * 1024);
  });
});
