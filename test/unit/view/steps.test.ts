import { expect } from 'chai';
import { isSystemText } from '../../../src/view/client/steps.js';

describe('view client: what a run page folds away', () => {
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
});
