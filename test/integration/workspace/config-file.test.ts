import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeRemote, setOriginAndUpstreams } from '../../../src/workspace/config-file.js';
import { rawGit, tempDir } from '../source/fixtures.js';

/** A value exactly as git reads it (rawGit trims its output). */
function configValue(repo: string, key: string): string {
  const out = execFileSync('git', ['config', '-z', '--get', key], {
    cwd: repo,
    env: { PATH: process.env.PATH ?? '', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
    encoding: 'utf8',
  });
  return out.slice(0, -1);
}

describe('workspace: the config file written in place of git remote and git push -u', () => {
  let tmp: ReturnType<typeof tempDir>;
  beforeEach(() => {
    tmp = tempDir('config-file');
  });
  afterEach(() => tmp.cleanup());

  it('is read back by git as origin at the URL given and each branch tracking its namesake', async () => {
    const repo = join(tmp.dir, 'r');
    rawGit(tmp.dir, 'init', '-q', '-b', 'main', repo);
    const urls = [
      '/remote/acme/toy.git',
      ' leading and trailing ',
      'file:///a path/with "quotes"/back\\slash/#hash;semi.git',
      'tab\there',
    ];
    for (const url of urls) {
      await setOriginAndUpstreams(join(repo, '.git', 'config'), url, ['main', 'agent/"x"']);
      expect(configValue(repo, 'remote.origin.url')).to.equal(url);
      expect(rawGit(repo, 'config', '--get-all', 'remote.origin.fetch')).to.equal(
        '+refs/heads/*:refs/remotes/origin/*',
      );
      expect(rawGit(repo, 'config', '--get', 'branch.agent/"x".merge')).to.equal(
        'refs/heads/agent/"x"',
      );
    }
    // Re-pointing replaces the one origin section and adds no second branch section.
    const text = readFileSync(join(repo, '.git', 'config'), 'utf8');
    expect(text.match(/^\[remote "origin"\]$/gm)).to.have.length(1);
    expect(text.match(/^\[branch "main"\]$/gm)).to.have.length(1);
    expect(rawGit(repo, 'config', '--get', 'core.bare')).to.equal('false');
  });

  it('writes what git remote add and git push -u write', async () => {
    const ours = join(tmp.dir, 'ours');
    const theirs = join(tmp.dir, 'theirs');
    for (const repo of [ours, theirs]) rawGit(tmp.dir, 'init', '-q', '-b', 'main', repo);
    await setOriginAndUpstreams(join(ours, '.git', 'config'), '/remote/o.git', ['main', 'b/x']);
    rawGit(theirs, 'remote', 'add', 'origin', '/remote/o.git');
    rawGit(theirs, 'config', 'branch.main.remote', 'origin');
    rawGit(theirs, 'config', 'branch.main.merge', 'refs/heads/main');
    rawGit(theirs, 'config', 'branch.b/x.remote', 'origin');
    rawGit(theirs, 'config', 'branch.b/x.merge', 'refs/heads/b/x');
    expect(readFileSync(join(ours, '.git', 'config'), 'utf8')).to.equal(
      readFileSync(join(theirs, '.git', 'config'), 'utf8'),
    );
    await removeRemote(join(ours, '.git', 'config'), 'origin');
    rawGit(theirs, 'config', '--remove-section', 'remote.origin');
    expect(readFileSync(join(ours, '.git', 'config'), 'utf8')).to.equal(
      readFileSync(join(theirs, '.git', 'config'), 'utf8'),
    );
  });
});
