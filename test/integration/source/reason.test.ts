import { expect } from 'chai';
import { gitReason } from '../../../src/source/index.js';

describe("source: git's reason in a source error", () => {
  it('keeps every fatal and error line and drops the connection hint', () => {
    const stderr = [
      "fatal: '/evals/missing.git' does not appear to be a git repository",
      'fatal: Could not read from remote repository.',
      '',
      'Please make sure you have the correct access rights',
      'and the repository exists.',
      '',
    ].join('\n');
    expect(gitReason(stderr)).to.equal(
      "'/evals/missing.git' does not appear to be a git repository; Could not read from remote repository.",
    );
  });

  it("keeps a server's remote: lines, and falls back to the last line", () => {
    expect(gitReason('remote: Repository not found.\nfatal: repository not found\n')).to.equal(
      'Repository not found.; repository not found',
    );
    expect(gitReason('something odd happened\n')).to.equal('something odd happened');
    expect(gitReason('')).to.equal('');
  });
});
