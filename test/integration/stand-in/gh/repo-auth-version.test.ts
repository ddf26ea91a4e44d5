import { expect } from 'chai';
import { TempRepo } from './support.js';

describe('gh stand-in: repo view, auth status, --version', function () {
  let repo: TempRepo;
  before(async () => {
    repo = await TempRepo.create();
  });
  after(async () => {
    await repo.remove();
  });

  it('repo view prints name, description and the README of the default branch', async () => {
    const r = await repo.gh(['repo', 'view']);
    expect(r).to.deep.equal({
      stdout: 'name:\tacme/toy\ndescription:\t\n--\n# toy\n\n',
      stderr: '',
      exitCode: 0,
    });
    expect(await repo.lastCall()).to.include({ command: 'repo view', played: true });
  });

  it('repo view --json gives the shapes of the facts sheet, and --jq paths', async () => {
    const r = await repo.gh([
      'repo',
      'view',
      '--json',
      'owner,name,nameWithOwner,defaultBranchRef,url,isFork',
    ]);
    expect(r.stdout).to.equal(
      '{"defaultBranchRef":{"name":"main"},"isFork":false,"name":"toy","nameWithOwner":"acme/toy",' +
        '"owner":{"id":"U_stand_in_acme","login":"acme"},"url":"https://github.com/acme/toy"}\n',
    );
    const q = async (expr: string): Promise<string> =>
      (
        await repo.gh([
          'repo',
          'view',
          '--json',
          'owner,name,nameWithOwner,defaultBranchRef',
          '-q',
          expr,
        ])
      ).stdout;
    expect(await q('.owner.login')).to.equal('acme\n');
    expect(await q('.nameWithOwner')).to.equal('acme/toy\n');
    expect(await q('.defaultBranchRef.name')).to.equal('main\n');
  });

  it('repo view of the origin repository by name is played; another one is not', async () => {
    expect((await repo.gh(['repo', 'view', 'acme/toy', '--json', 'name'])).stdout).to.equal(
      '{"name":"toy"}\n',
    );
    const other = await repo.gh(['repo', 'view', 'cli/cli']);
    expect(other.exitCode).to.equal(1);
    expect(other.stderr).to.match(/not played/);
    expect(await repo.lastCall()).to.include({ played: false, command: 'repo view' });
  });

  it('auth status is logged in as GH_STAND_IN_USER (default evalrig)', async () => {
    const r = await repo.gh(['auth', 'status']);
    expect(r).to.deep.equal({
      stdout:
        'github.com\n' +
        '  ✓ Logged in to github.com account evalrig (keyring)\n' +
        '  - Active account: true\n' +
        '  - Git operations protocol: https\n' +
        '  - Token: gho_************************************\n' +
        "  - Token scopes: 'gist', 'read:org', 'repo', 'workflow'\n",
      stderr: '',
      exitCode: 0,
    });
    const octo = await repo.gh(['auth', 'status'], {
      env: { GH_STAND_IN_USER: 'octo', GH_TOKEN: 'x' },
    });
    expect(octo.stdout).to.contain('account octo (GH_TOKEN)');
    expect(await repo.lastCall()).to.include({ command: 'auth status', played: true });
  });

  it('--version (and version) print the version and its release URL', async () => {
    for (const args of [['--version'], ['version']]) {
      const r = await repo.gh(args);
      expect(r.stdout).to.match(
        /^gh version 2\.78\.0 \(\d{4}-\d{2}-\d{2}\)\nhttps:\/\/github\.com\/cli\/cli\/releases\/tag\/v2\.78\.0\n$/,
      );
      expect(r.exitCode).to.equal(0);
    }
    expect(await repo.lastCall()).to.include({ command: '--version', played: true });
  });
});
