import { expect } from 'chai';
import { withoutEscapes } from '../../../src/untrusted/terminal.js';

describe('untrusted: terminal escapes in a command output', () => {
  it('takes them out (colours, cursor moves, titles), as the viewer and the report show it', () => {
    expect(withoutEscapes('\u001b[31mred\u001b[0m \u001b[2K\u001b[1Gok')).to.equal('red ok');
    expect(withoutEscapes('\u001b]0;title\u0007done')).to.equal('done');
    expect(withoutEscapes('plain')).to.equal('plain');
  });
});
