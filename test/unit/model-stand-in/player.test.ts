import { expect } from 'chai';
import { checkModelScript } from '../../../src/model-stand-in/index.js';
import { requestText, ScriptPlayer } from '../../../src/model-stand-in/player.js';

const say = (text: string) => ({ content: [{ text }] });

describe('model stand-in: which response a request gets', () => {
  const script = checkModelScript(
    {
      responses: [
        { when: { contains: ['eval: a'] }, ...say('A') },
        { when: { contains: ['eval: b'] }, ...say('B') },
        say('catch-all'),
        say('last'),
      ],
    },
    'script.json',
  );

  it('answers by when first, and names a catch-all played while a when waits a fallback', () => {
    const p = new ScriptPlayer(script);
    expect(p.pick('eval: b')).to.deep.equal({ index: 1, how: 'when' });
    p.markPlayed(1);
    // eval: c fits neither when: the catch-all answers, while `eval: a` still waits.
    expect(p.pick('eval: c')).to.deep.equal({ index: 2, how: 'fallback' });
    p.markPlayed(2);
    expect(p.pick('eval: a')).to.deep.equal({ index: 0, how: 'when' });
    p.markPlayed(0);
    // No when is left: the next in order is just that.
    expect(p.pick('eval: c')).to.deep.equal({ index: 3, how: 'in_order' });
    p.markPlayed(3);
    expect(p.pick('eval: c')).to.deep.equal({ index: -1, how: 'none' });
    expect(p.left).to.equal(0);
  });

  it("matches a when against every string of the request's JSON, as bytes or parsed", () => {
    const body = { system: 'rubric', messages: [{ role: 'user', content: [{ text: 'eval: a' }] }] };
    expect(requestText(Buffer.from(JSON.stringify(body)))).to.equal('rubric\nuser\neval: a');
    expect(requestText(body)).to.equal('rubric\nuser\neval: a');
    expect(requestText(Buffer.from('not json'))).to.equal('not json');
  });
});
