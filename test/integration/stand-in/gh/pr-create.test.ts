import { expect } from 'chai';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeFlags, prUrl, TempRepo } from './support.js';

describe('gh stand-in: pr create', function () {
  let repo: TempRepo;
  beforeEach(async () => {
    repo = await TempRepo.create();
    await repo.branch('feature');
  });
  afterEach(async () => {
    await repo.remove();
  });

  it('opens a draft with the body from standard input and prints the URL alone', async () => {
    const r = await repo.gh(
      ['pr', 'create', '--draft', '--title', 'Add feature', '--body-file', '-'],
      {
        input: 'The plan\n',
      },
    );
    expect(r).to.deep.equal({ stdout: `${prUrl(1)}\n`, stderr: '', exitCode: 0 });
    const state = await repo.state();
    expect(state.next_number).to.equal(2);
    expect(state.pull_requests).to.deep.equal([
      {
        number: 1,
        title: 'Add feature',
        body: 'The plan\n',
        head: 'feature',
        base: 'main',
        draft: true,
        state: 'OPEN',
        created_at: '2026-11-29T19:00:00Z',
        updated_at: '2026-11-29T19:00:00Z',
        url: prUrl(1),
        author: 'evalrig',
      },
    ]);
    const call = await repo.lastCall();
    expect(call).to.include({
      command: 'pr create',
      stdin: 'The plan\n',
      description: 'The plan\n',
      pr: 1,
    });
    expect(call).to.include({ played: true, marks_ready: false, exit_code: 0 });
  });

  it('plays the alias new, short flags, --flag=value and a body from a file', async () => {
    await writeFile(path.join(repo.work, 'body.md'), 'From a file\n');
    const r = await repo.gh(['pr', 'new', '-d', '-t', 'T', '-F', 'body.md', '--base=main']);
    expect(r.stdout).to.equal(`${prUrl(1)}\n`);
    const [pr] = (await repo.state()).pull_requests;
    expect(pr).to.include({ body: 'From a file\n', draft: true, base: 'main' });
    expect(await repo.lastCall()).to.include({
      command: 'pr create',
      stdin: null,
      description: 'From a file\n',
    });
  });

  it('takes the author from GH_STAND_IN_USER and opens a non-draft without --draft', async () => {
    await repo.gh(['pr', 'create', '-t', 'T', '-b', 'B'], { env: { GH_STAND_IN_USER: 'octo' } });
    expect((await repo.state()).pull_requests[0]).to.include({ author: 'octo', draft: false });
  });

  it('uses --head without checking the current branch', async () => {
    await repo.git('switch', '-q', 'main');
    const r = await repo.gh(['pr', 'create', '-H', 'feature', '-t', 'T', '-b', 'B']);
    expect(r.stdout).to.equal(`${prUrl(1)}\n`);
    expect((await repo.state()).pull_requests[0]).to.include({ head: 'feature' });
  });

  it('takes the base from the remote HEAD, else branch.<b>.gh-merge-base', async () => {
    await repo.git('push', '-q', 'origin', 'main:trunk');
    await repo.git('--git-dir', repo.remote, 'symbolic-ref', 'HEAD', 'refs/heads/trunk');
    await repo.gh(['pr', 'create', '-t', 'T', '-b', 'B']);
    expect((await repo.state()).pull_requests[0]?.base).to.equal('trunk');
    await repo.branch('second');
    await repo.git('config', 'branch.second.gh-merge-base', 'main');
    await repo.gh(['pr', 'create', '-t', 'T', '-b', 'B']);
    expect((await repo.state()).pull_requests[1]?.base).to.equal('main');
  });

  it('refuses a second opening for the same head and base with the address of the first', async () => {
    await repo.gh(['pr', 'create', '-t', 'T', '-b', 'B']);
    const r = await repo.gh(['pr', 'create', '-t', 'Again', '-b', 'B2']);
    expect(r).to.deep.equal({
      stdout: '',
      stderr: `a pull request for branch "feature" into branch "main" already exists:\n${prUrl(1)}\n`,
      exitCode: 1,
    });
    expect((await repo.state()).pull_requests).to.have.length(1);
  });

  it('trusts the local tracking ref, as gh does, and opens against what the remote holds', async () => {
    await repo.commit('more.txt', 'more\n');
    // A tracking ref that claims the new commit, while the remote itself does not hold it:
    // gh checks only the local ref (determineTrackingBranch), then GitHub opens its own tip.
    await repo.git('update-ref', 'refs/remotes/origin/feature', 'HEAD');
    const r = await repo.gh(['pr', 'create', '-t', 'T', '-b', 'B']);
    expect(r).to.deep.equal({ stdout: `${prUrl(1)}\n`, stderr: '', exitCode: 0 });
  });

  it('refuses a new commit not pushed, without a newline (gh prints it with Fprintf)', async () => {
    await repo.commit('more.txt', 'more\n');
    const r = await repo.gh(['pr', 'create', '-t', 'T', '-b', 'B']);
    expect(r).to.deep.equal({
      stdout: '',
      stderr: 'aborted: you must first push the current branch to a remote, or use the --head flag',
      exitCode: 1,
    });
    expect(await repo.calls()).to.have.length(1);
  });

  it('refuses a branch never pushed', async () => {
    await repo.branch('local-only', false);
    const r = await repo.gh(['pr', 'create', '-t', 'T', '-b', 'B']);
    expect(r.stderr).to.match(/^aborted: you must first push the current branch/);
  });

  it('refuses when nothing lies between base and head', async () => {
    await repo.git('switch', '-q', 'main');
    await repo.git('switch', '-q', '-c', 'empty');
    await repo.git('push', '-q', '-u', 'origin', 'empty');
    const r = await repo.gh(['pr', 'create', '-t', 'T', '-b', 'B']);
    expect(r).to.deep.equal({
      stdout: '',
      stderr:
        'pull request create failed: GraphQL: No commits between main and empty (createPullRequest)\n',
      exitCode: 1,
    });
  });

  it('refuses a detached HEAD', async () => {
    await repo.git('switch', '-q', '--detach');
    const r = await repo.gh(['pr', 'create', '-t', 'T', '-b', 'B']);
    expect(r.stderr).to.equal(
      'could not determine the current branch: could not determine current branch: failed to run git: not on any branch\n',
    );
    expect(r.exitCode).to.equal(1);
  });

  it('refuses a missing title or body with the usage line, and counts --title "" as given', async () => {
    const message =
      'must provide `--title` and `--body` (or `--fill` or `fill-first` or `--fillverbose`) when not running interactively\n';
    for (const args of [['-t', 'T'], ['-b', 'B'], []]) {
      const r = await repo.gh(['pr', 'create', ...args]);
      expect(beforeFlags(r.stderr)).to.equal(`${message}\nUsage:  gh pr create [flags]\n`);
      expect(r.exitCode).to.equal(1);
    }
    // Given, so no usage error; then gh's submitPR refuses the blank title itself.
    const blank = await repo.gh(['pr', 'create', '--title', '', '--body', '']);
    expect(blank).to.deep.equal({
      stdout: '',
      stderr: 'pull request title must not be blank\n',
      exitCode: 1,
    });
    expect(await repo.state().catch(() => undefined)).to.equal(undefined);
  });

  it('warns of uncommitted changes on stderr and still opens', async () => {
    await writeFile(path.join(repo.work, 'dirty.txt'), 'x');
    await writeFile(path.join(repo.work, 'README.md'), 'changed');
    const r = await repo.gh(['pr', 'create', '-t', 'T', '-b', 'B']);
    expect(r).to.deep.equal({
      stdout: `${prUrl(1)}\n`,
      stderr: 'Warning: 2 uncommitted changes\n',
      exitCode: 0,
    });
  });

  it('refuses positional arguments as gh words it', async () => {
    const r = await repo.gh(['pr', 'create', 'my', '-t', 'T', '-b', 'B']);
    expect(beforeFlags(r.stderr)).to.equal(
      'unknown argument "my"; please quote all values that have spaces\n\nUsage:  gh pr create [flags]\n',
    );
  });

  it('gives every opening its own number, across branches', async () => {
    await repo.gh(['pr', 'create', '-t', 'one', '-b', '']);
    await repo.branch('other');
    const r = await repo.gh(['pr', 'create', '-t', 'two', '-b', '']);
    expect(r.stdout).to.equal(`${prUrl(2)}\n`);
  });
});
