import { expect } from 'chai';
import { beforeFlags, TempRepo } from './support.js';

describe('gh stand-in: flags, --json/--jq errors and what it does not play', function () {
  let repo: TempRepo;
  before(async () => {
    repo = await TempRepo.create();
    await repo.branch('feature');
    await repo.gh(['pr', 'create', '-t', 'T', '-b', 'B']);
  });
  after(async () => {
    await repo.remove();
  });

  it('words unknown flags and missing values as gh does, with the usage line', async () => {
    expect(beforeFlags((await repo.gh(['pr', 'list', '--bogus'])).stderr)).to.equal(
      'unknown flag: --bogus\n\nUsage:  gh pr list [flags]\n',
    );
    expect(beforeFlags((await repo.gh(['pr', 'list', '-z'])).stderr)).to.equal(
      "unknown shorthand flag: 'z' in -z\n\nUsage:  gh pr list [flags]\n",
    );
    expect(beforeFlags((await repo.gh(['pr', 'edit', '--title'])).stderr)).to.equal(
      'flag needs an argument: --title\n\nUsage:  gh pr edit [<number> | <url> | <branch>] [flags]\n',
    );
    expect(beforeFlags((await repo.gh(['pr', 'create', '-t'])).stderr)).to.equal(
      "flag needs an argument: 't' in -t\n\nUsage:  gh pr create [flags]\n",
    );
    const call = await repo.lastCall();
    expect(call).to.include({ played: true, exit_code: 1, command: 'pr create' });
  });

  it('treats everything after -- as arguments', async () => {
    const r = await repo.gh(['pr', 'view', '--json', 'number', '--', '1']);
    expect(r.stdout).to.equal('{"number":1}\n');
  });

  it('groups short booleans with a value flag (-dt title)', async () => {
    await repo.branch('grouped');
    const r = await repo.gh(['pr', 'create', '-dt', 'Grouped', '-b', '']);
    expect(r.exitCode).to.equal(0);
    expect((await repo.state()).pull_requests[1]).to.include({ title: 'Grouped', draft: true });
  });

  it('refuses unknown JSON fields with the sorted list, and --json with no value', async () => {
    const r = await repo.gh(['pr', 'list', '--json', 'number,nope']);
    expect(r.exitCode).to.equal(1);
    expect(r.stderr).to.match(
      /^Unknown JSON field: "nope"\nAvailable fields:\n {2}additions\n {2}assignees\n {2}author\n/,
    );
    expect(r.stderr).to.match(/\n {2}updatedAt\n {2}url\n$/);
    const none = await repo.gh(['pr', 'view', '--json']);
    expect(none.stderr).to.match(
      /^Specify one or more comma-separated fields for `--json`:\n {2}additions\n/,
    );
    const jq = await repo.gh(['pr', 'view', '--jq', '.number']);
    expect(jq.stderr).to.equal('cannot use `--jq` without specifying `--json`\n');
  });

  it('refuses a --jq beyond the subset, records it as not played', async () => {
    const r = await repo.gh(['pr', 'list', '--json', 'number', '--jq', '.[] | @tsv']);
    expect(r.exitCode).to.equal(1);
    expect(r.stdout).to.equal('');
    expect(r.stderr).to.match(/^gh stand-in: --jq "\.\[\] \| @tsv" is not played/);
    expect(await repo.lastCall()).to.include({ played: false, command: 'pr list' });
  });

  it('refuses JSON fields it does not compute, as not played', async () => {
    const r = await repo.gh(['pr', 'view', '--json', 'mergeable']);
    expect(r.stderr).to.match(/--json field "mergeable" is not played/);
    expect(await repo.lastCall()).to.include({ played: false });
  });

  const unplayed: string[][] = [
    ['api', 'repos/acme/toy'],
    ['pr', 'merge', '1'],
    ['pr', 'checks'],
    ['pr', 'status'],
    ['issue', 'list'],
    ['pr', 'view', '--web'],
    ['pr', 'list', '--repo', 'gitlab.com/acme/toy'],
    ['pr', 'create', '-t', 'x', '-b', 'y', '--reviewer', 'octocat'],
    ['pr', 'create', '-t', 'x', '-b', 'y', '--milestone', 'v1'],
    ['pr', 'list', '--author', 'me'],
    ['pr', 'list', '--label', 'bug'],
    ['pr', 'edit', '--add-reviewer', 'octocat'],
    ['pr', 'edit', '--add-assignee', '@copilot'],
    ['pr', 'merge', '--help'],
    ['help', 'pr', 'merge'],
    ['help', 'formatting'],
    ['auth', 'status', '--show-token'],
    ['browse'],
  ];
  for (const args of unplayed) {
    it(`refuses "gh ${args.join(' ')}" as not played (exit 1, recorded)`, async () => {
      const before = (await repo.calls()).length;
      const stateBefore = await repo.state();
      const r = await repo.gh(args);
      expect(r.exitCode).to.equal(1);
      expect(r.stdout).to.equal('');
      expect(r.stderr).to.match(/^gh stand-in: .* is not played by this stand-in/);
      const calls = await repo.calls();
      expect(calls).to.have.length(before + 1);
      expect(calls[calls.length - 1]).to.include({ played: false, exit_code: 1 });
      expect(calls[calls.length - 1]?.argv).to.deep.equal(args);
      expect(await repo.state()).to.deep.equal(stateBefore);
    });
  }
});
