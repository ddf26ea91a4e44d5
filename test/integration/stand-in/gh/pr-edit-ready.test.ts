import { expect } from 'chai';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeFlags, prUrl, TempRepo } from './support.js';

describe('gh stand-in: pr edit and pr ready', function () {
  let repo: TempRepo;
  beforeEach(async () => {
    repo = await TempRepo.create();
    await repo.branch('feature');
    await repo.gh(['pr', 'create', '--draft', '-t', 'Draft', '-b', 'first body']);
  });
  afterEach(async () => {
    await repo.remove();
  });

  describe('pr edit', () => {
    it('refreshes the body of the branch PR from standard input and prints the URL', async () => {
      const r = await repo.gh(['pr', 'edit', '--body-file', '-'], {
        input: 'refreshed\n',
        env: { GH_STAND_IN_NOW: '2026-11-29T20:00:00Z' },
      });
      expect(r).to.deep.equal({ stdout: `${prUrl(1)}\n`, stderr: '', exitCode: 0 });
      const [pr] = (await repo.state()).pull_requests;
      expect(pr).to.include({
        body: 'refreshed\n',
        draft: true,
        updated_at: '2026-11-29T20:00:00Z',
      });
      expect(await repo.lastCall()).to.include({
        command: 'pr edit',
        stdin: 'refreshed\n',
        description: 'refreshed\n',
        pr: 1,
        marks_ready: false,
      });
    });

    it('edits by number, #number, URL or branch: title, body from a file, base', async () => {
      await writeFile(path.join(repo.work, 'b.md'), 'file body');
      await repo.git('switch', '-q', 'main');
      for (const sel of ['1', '#1', prUrl(1), 'feature']) {
        const r = await repo.gh(['pr', 'edit', sel, '--title', `by ${sel}`]);
        expect(r.stdout).to.equal(`${prUrl(1)}\n`);
      }
      await repo.gh(['pr', 'edit', '1', '-F', 'b.md', '-B', 'develop']);
      expect((await repo.state()).pull_requests[0]).to.include({
        title: 'by feature',
        body: 'file body',
        base: 'develop',
      });
    });

    it('refuses a branch with no pull request', async () => {
      await repo.branch('lonely');
      const r = await repo.gh(['pr', 'edit', '--body', 'x']);
      expect(r).to.deep.equal({
        stdout: '',
        stderr: 'no pull requests found for branch "lonely"\n',
        exitCode: 1,
      });
      expect(await repo.lastCall()).to.include({ description: 'x', pr: null, played: true });
    });

    it('refuses an unknown number as GitHub answers it', async () => {
      const r = await repo.gh(['pr', 'edit', '7', '--body', 'x']);
      expect(r.stderr).to.equal(
        'GraphQL: Could not resolve to a PullRequest with the number of 7. (repository.pullRequest)\n',
      );
    });

    it('refuses --body with --body-file, and no edit flag at all', async () => {
      const both = await repo.gh(['pr', 'edit', '-b', 'x', '-F', '-']);
      expect(beforeFlags(both.stderr)).to.equal(
        'specify only one of `--body` or `--body-file`\n\nUsage:  gh pr edit [<number> | <url> | <branch>] [flags]\n',
      );
      const none = await repo.gh(['pr', 'edit']);
      expect(none.stderr).to.match(
        /^--tile, --body, --reviewer, --assignee, --label, --project, or --milestone required when not running interactively\n/,
      );
      expect(none.exitCode).to.equal(1);
    });

    it('refuses a detached HEAD with no selector', async () => {
      await repo.git('switch', '-q', '--detach');
      const r = await repo.gh(['pr', 'edit', '-b', 'x']);
      expect(r.stderr).to.equal(
        'could not determine current branch: failed to run git: not on any branch\n',
      );
    });
  });

  describe('pr ready', () => {
    it('marks the draft ready, then says it already is, all on stderr', async () => {
      const r = await repo.gh(['pr', 'ready']);
      expect(r).to.deep.equal({
        stdout: '',
        stderr: '✓ Pull request acme/toy#1 is marked as "ready for review"\n',
        exitCode: 0,
      });
      expect((await repo.state()).pull_requests[0]?.draft).to.equal(false);
      expect(await repo.lastCall()).to.include({ command: 'pr ready', marks_ready: true, pr: 1 });
      const again = await repo.gh(['pr', 'ready', '1']);
      expect(again).to.deep.equal({
        stdout: '',
        stderr: '! Pull request acme/toy#1 is already "ready for review"\n',
        exitCode: 0,
      });
    });

    it('--undo converts back to draft and is not a marking', async () => {
      await repo.gh(['pr', 'ready']);
      const r = await repo.gh(['pr', 'ready', '--undo']);
      expect(r.stderr).to.equal('✓ Pull request acme/toy#1 is converted to "draft"\n');
      expect(await repo.lastCall()).to.include({ marks_ready: false });
      const again = await repo.gh(['pr', 'ready', '--undo']);
      expect(again.stderr).to.equal('! Pull request acme/toy#1 is already "in draft"\n');
      expect((await repo.state()).pull_requests[0]?.draft).to.equal(true);
    });

    it('refuses a closed pull request (exit 1) and records the attempt as a marking', async () => {
      const state = await repo.state();
      state.pull_requests[0]!.state = 'CLOSED';
      await repo.prepare(state);
      const r = await repo.gh(['pr', 'ready']);
      expect(r).to.deep.equal({
        stdout: '',
        stderr:
          'X Pull request acme/toy#1 is closed. Only draft pull requests can be marked as "ready for review"\n',
        exitCode: 1,
      });
      expect(await repo.lastCall()).to.include({ marks_ready: true, exit_code: 1 });
    });

    it('marks_ready is true even when no pull request is found', async () => {
      await repo.branch('lonely');
      const r = await repo.gh(['pr', 'ready']);
      expect(r.stderr).to.equal('no pull requests found for branch "lonely"\n');
      expect(await repo.lastCall()).to.include({ marks_ready: true, pr: null });
    });
  });
});
