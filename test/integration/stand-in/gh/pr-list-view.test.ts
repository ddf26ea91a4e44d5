import { expect } from 'chai';
import { beforeFlags, prUrl, TempRepo } from './support.js';

describe('gh stand-in: pr list and pr view', function () {
  let repo: TempRepo;
  before(async () => {
    repo = await TempRepo.create();
    await repo.branch('feature');
    await repo.gh(['pr', 'create', '--draft', '-t', 'Draft one', '-b', 'plan\n'], {
      env: { GH_STAND_IN_NOW: '2026-11-29T19:00:00Z' },
    });
    await repo.branch('second');
    await repo.gh(['pr', 'create', '-t', 'Ready two', '-b', 'two'], {
      env: { GH_STAND_IN_NOW: '2026-11-29T19:05:00Z' },
    });
  });
  after(async () => {
    await repo.remove();
  });

  describe('pr list', () => {
    it('prints tab-separated lines, newest first, DRAFT for open drafts', async () => {
      const r = await repo.gh(['pr', 'list']);
      expect(r).to.deep.equal({
        stdout:
          '2\tReady two\tsecond\tOPEN\t2026-11-29T19:05:00Z\n' +
          '1\tDraft one\tfeature\tDRAFT\t2026-11-29T19:00:00Z\n',
        stderr: '',
        exitCode: 0,
      });
      expect(await repo.lastCall()).to.include({ command: 'pr list', pr: null, played: true });
    });

    it('filters by --head, --base, --draft, --state and --limit; alias ls', async () => {
      expect((await repo.gh(['pr', 'ls', '--head', 'feature'])).stdout).to.match(/^1\t/);
      expect((await repo.gh(['pr', 'list', '-d'])).stdout).to.match(/^1\tDraft one/);
      expect((await repo.gh(['pr', 'list', '-B', 'main', '-L', '1'])).stdout).to.match(
        /^2\t[^\n]*\n$/,
      );
      expect((await repo.gh(['pr', 'list', '--state', 'closed'])).stdout).to.equal('');
      expect(
        (await repo.gh(['pr', 'list', '-s', 'all', '--limit=5'])).stdout.split('\n'),
      ).to.have.length(3);
    });

    it('prints nothing when none, and [] with --json', async () => {
      expect(await repo.gh(['pr', 'list', '-H', 'nope'])).to.deep.equal({
        stdout: '',
        stderr: '',
        exitCode: 0,
      });
      expect((await repo.gh(['pr', 'list', '-H', 'nope', '--json', 'number'])).stdout).to.equal(
        '[]\n',
      );
    });

    it('prints --json compact with sorted keys, and --jq results raw', async () => {
      const r = await repo.gh(['pr', 'list', '--json', 'title,number,isDraft,state,url']);
      expect(r.stdout).to.equal(
        `[{"isDraft":false,"number":2,"state":"OPEN","title":"Ready two","url":"${prUrl(2)}"},` +
          `{"isDraft":true,"number":1,"state":"OPEN","title":"Draft one","url":"${prUrl(1)}"}]\n`,
      );
      const jq = async (q: string): Promise<string> =>
        (await repo.gh(['pr', 'list', '--json', 'number,url,author', '--jq', q])).stdout;
      expect(await jq('.[0].number')).to.equal('2\n');
      expect(await jq('.[0].url')).to.equal(`${prUrl(2)}\n`);
      expect(await jq('.[] | .number')).to.equal('2\n1\n');
      expect(await jq('length')).to.equal('2\n');
      expect(await jq('.[5].number')).to.equal('\n');
      expect(await jq('.[-1].author.login')).to.equal('evalrig\n');
      expect(await jq('.[0].author')).to.equal(
        '{"id":"U_stand_in_evalrig","is_bot":false,"login":"evalrig","name":""}\n',
      );
      expect(await jq('.[9].number // empty')).to.equal('');
      expect(await jq('.[9].number // .[0].number')).to.equal('2\n');
    });

    it('refuses bad --state and --limit values as gh words them', async () => {
      const s = await repo.gh(['pr', 'list', '--state', 'weird']);
      expect(beforeFlags(s.stderr)).to.equal(
        'invalid argument "weird" for "-s, --state" flag: valid values are {open|closed|merged|all}\n\nUsage:  gh pr list [flags]\n',
      );
      const l = await repo.gh(['pr', 'list', '-L', '0']);
      expect(beforeFlags(l.stderr)).to.equal(
        'invalid value for --limit: 0\n\nUsage:  gh pr list [flags]\n',
      );
      expect(l.exitCode).to.equal(1);
    });
  });

  describe('pr view', () => {
    it('prints key:value lines then the body, for the current branch', async () => {
      await repo.git('switch', '-q', 'feature');
      const r = await repo.gh(['pr', 'view']);
      expect(r).to.deep.equal({
        stdout: [
          'title:\tDraft one',
          'state:\tDRAFT',
          'author:\tevalrig',
          'labels:\t',
          'assignees:\t',
          'reviewers:\t',
          'projects:\t',
          'milestone:\t',
          'number:\t1',
          `url:\t${prUrl(1)}`,
          'additions:\t1',
          'deletions:\t0',
          'auto-merge:\tdisabled',
          '--',
          'plan\n\n',
        ].join('\n'),
        stderr: '',
        exitCode: 0,
      });
      expect(await repo.lastCall()).to.include({ command: 'pr view', pr: 1 });
    });

    it('prints one --json object, and --jq paths', async () => {
      const r = await repo.gh([
        'pr',
        'view',
        '2',
        '--json',
        'number,headRefName,baseRefName,isDraft,body',
      ]);
      expect(r.stdout).to.equal(
        '{"baseRefName":"main","body":"two","headRefName":"second","isDraft":false,"number":2}\n',
      );
      const q = await repo.gh([
        'pr',
        'view',
        'feature',
        '--json',
        'state,closingIssuesReferences',
        '-q',
        '.closingIssuesReferences[0].number // empty',
      ]);
      expect(q).to.deep.equal({ stdout: '', stderr: '', exitCode: 0 });
      const files = await repo.gh([
        'pr',
        'view',
        '1',
        '--json',
        'files,changedFiles,additions,deletions',
      ]);
      expect(JSON.parse(files.stdout)).to.deep.equal({
        additions: 1,
        changedFiles: 1,
        deletions: 0,
        files: [{ additions: 1, deletions: 0, path: 'feature.txt' }],
      });
    });

    it('refuses a branch with no pull request', async () => {
      const r = await repo.gh(['pr', 'view', 'nope']);
      expect(r).to.deep.equal({
        stdout: '',
        stderr: 'no pull requests found for branch "nope"\n',
        exitCode: 1,
      });
    });

    it('refuses more than one argument as cobra words it', async () => {
      const r = await repo.gh(['pr', 'view', '1', '2']);
      expect(r).to.deep.equal({
        stdout: '',
        stderr: 'accepts at most 1 arg(s), received 2\n',
        exitCode: 1,
      });
    });
  });
});
