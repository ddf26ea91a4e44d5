import { expect } from 'chai';
import { withoutEscapes } from '../../../src/view/client/dom.js';
import { isSystemText } from '../../../src/view/client/steps.js';

describe('view client: what a run page folds away and cleans', () => {
  it("folds a harness's text for the model: system and developer messages, and texts of system reminders only", () => {
    expect(isSystemText('system', 'You are an agent.')).to.equal(true);
    expect(isSystemText('developer', '<skills>…</skills>')).to.equal(true);
    expect(isSystemText('user', '<system-reminder>\nCLAUDE.md…\n</system-reminder>\n')).to.equal(
      true,
    );
    expect(isSystemText('user', '<system-reminder>x</system-reminder>\nFix the bug.')).to.equal(
      false,
    );
    expect(isSystemText('user', 'Fix the bug.')).to.equal(false);
  });

  it('takes terminal escapes out of what it shows (colours, cursor moves, titles)', () => {
    expect(withoutEscapes('\u001b[31mred\u001b[0m \u001b[2K\u001b[1Gok')).to.equal('red ok');
    expect(withoutEscapes('\u001b]0;title\u0007done')).to.equal('done');
    expect(withoutEscapes('plain')).to.equal('plain');
  });
});
