import { expect } from 'chai';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { ghBundle, prUrl, recordValidators, TempRepo } from './support.js';

describe('gh stand-in: the record', function () {
  let repo: TempRepo;
  beforeEach(async () => {
    repo = await TempRepo.create();
    await repo.branch('feature');
  });
  afterEach(async () => {
    await repo.remove();
  });

  it('writes records that validate against the schemas, one line per call, seq 1, 2, 3…', async () => {
    const v = await recordValidators();
    await repo.gh(['pr', 'create', '-d', '-t', 'T', '-F', '-'], { input: 'body' });
    await repo.gh(['pr', 'list', '--json', 'number']);
    await repo.gh(['pr', 'ready']);
    await repo.gh(['api', 'x']);
    await repo.gh(['--version']);
    await repo.gh(['auth', 'status']);
    const calls = await repo.calls();
    expect(calls.map((c) => c.seq)).to.deep.equal([1, 2, 3, 4, 5, 6]);
    for (const c of calls) expect(v.call(c), JSON.stringify(c)).to.equal(undefined);
    expect(v.state(await repo.state())).to.equal(undefined);
    expect(calls.map((c) => c.command)).to.deep.equal([
      'pr create',
      'pr list',
      'pr ready',
      null,
      '--version',
      'auth status',
    ]);
    expect(calls[0]).to.deep.include({
      argv: ['pr', 'create', '-d', '-t', 'T', '-F', '-'],
      cwd: repo.work,
      time: '2026-11-29T19:00:00Z',
      stdout: `${prUrl(1)}\n`,
      stderr: '',
    });
  });

  it('records help as `help`: pr ready --help marks nothing ready; labels and assignees validate', async () => {
    const v = await recordValidators();
    await repo.prepare({ labels: [{ name: 'needs-review', color: 'FBCA04' }], pull_requests: [] });
    await repo.gh(['pr', 'create', '-d', '-t', 'T', '-b', 'B', '-l', 'needs-review', '-a', '@me']);
    const help = await repo.gh(['pr', 'ready', '--help']);
    expect(help.exitCode).to.equal(0);
    const call = await repo.lastCall();
    expect(call).to.include({ command: 'help', played: true, marks_ready: false, pr: null });
    expect(v.call(call)).to.equal(undefined);
    const state = await repo.state();
    expect(v.state(state)).to.equal(undefined);
    expect(state.pull_requests[0]).to.deep.include({
      draft: true,
      labels: ['needs-review'],
      assignees: ['evalrig'],
    });
  });

  it('keeps the record out of the work tree: git status stays clean', async () => {
    await repo.gh(['pr', 'create', '-t', 'T', '-b', 'B']);
    expect(await repo.git('status', '--porcelain')).to.equal('');
    expect((await stat(path.join(repo.recordDir, 'calls.jsonl'))).isFile()).to.equal(true);
  });

  it('records calls from a subdirectory in the same git directory', async () => {
    await execa('mkdir', ['-p', path.join(repo.work, 'sub/dir')]);
    const r = await repo.gh(['pr', 'list'], { cwd: path.join(repo.work, 'sub/dir') });
    expect(r.exitCode).to.equal(0);
    expect(await repo.lastCall()).to.include({ cwd: path.join(repo.work, 'sub/dir') });
  });

  it('records in the worktree’s own git directory, following the .git file', async () => {
    const wt = path.join(repo.root, 'wt');
    await repo.git('worktree', 'add', '-q', '-b', 'wt-branch', wt, 'feature');
    const r = await repo.gh(['pr', 'list'], { cwd: wt });
    expect(r.exitCode).to.equal(0);
    const line = await readFile(
      path.join(repo.work, '.git/worktrees/wt/gh-stand-in/calls.jsonl'),
      'utf8',
    );
    expect(JSON.parse(line)).to.include({ command: 'pr list', cwd: wt });
  });

  it('starts from a prepared state (gaps filled in) and records no call for it', async () => {
    const v = await recordValidators();
    await repo.prepare({
      pull_requests: [
        {
          number: 4,
          title: 'Plan',
          body: 'prepared description',
          head: 'feature',
          base: 'main',
          draft: true,
        },
      ],
    });
    const list = await repo.gh([
      'pr',
      'list',
      '--json',
      'number,isDraft,body,url,createdAt,author',
    ]);
    expect(JSON.parse(list.stdout)).to.deep.equal([
      {
        author: { id: 'U_stand_in_evalrig', is_bot: false, login: 'evalrig', name: '' },
        body: 'prepared description',
        createdAt: '2026-11-29T19:00:00Z',
        isDraft: true,
        number: 4,
        url: prUrl(4),
      },
    ]);
    expect((await repo.calls()).map((c) => c.seq)).to.deep.equal([1]);
    const edit = await repo.gh(['pr', 'edit', '--body', 'refreshed']);
    expect(edit.stdout).to.equal(`${prUrl(4)}\n`);
    const state = await repo.state();
    expect(v.state(state)).to.equal(undefined);
    expect(state.next_number).to.equal(5);
    expect(state.pull_requests[0]).to.include({ number: 4, body: 'refreshed', draft: true });
    await repo.branch('next');
    expect((await repo.gh(['pr', 'create', '-t', 'N', '-b', ''])).stdout).to.equal(`${prUrl(5)}\n`);
  });

  it('refuses a malformed prepared state naming the file and the JSON pointer', async () => {
    await repo.prepare({ pull_requests: [{ number: 1, title: 'x' }] });
    const r = await repo.gh(['pr', 'list']);
    expect(r.exitCode).to.equal(1);
    expect(r.stderr).to.contain('state.json at /pull_requests/0/head: missing or not a string');
  });

  it('outside a git repository prints gh’s message and records nothing', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'gh-stand-in-nogit-'));
    try {
      const r = await execa(await ghBundle(), ['pr', 'list'], { cwd: dir, reject: false });
      expect(r.exitCode).to.equal(1);
      expect(r.stderr).to.equal(
        'failed to run git: fatal: not a git repository (or any of the parent directories): .git\n',
      );
      const v = await execa(await ghBundle(), ['--version'], { cwd: dir, reject: false });
      expect(v.exitCode).to.equal(0);
      expect((await execa('ls', ['-A', dir])).stdout).to.equal('');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('50 concurrent calls lose no line and never give two pull requests the same number', async function () {
    this.timeout(180_000);
    const n = 50;
    // Fifty pushed branches, each one commit ahead of main.
    await repo.git('switch', '-q', 'main');
    for (let i = 0; i < n; i++) await repo.git('branch', `b${i}`, 'feature');
    await repo.git('push', '-q', 'origin', ...Array.from({ length: n }, (_, i) => `b${i}`));
    const results = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        i % 5 === 4
          ? repo.gh(['pr', 'list', '--json', 'number'])
          : repo.gh(['pr', 'create', '-H', `b${i}`, '-t', `t${i}`, '-b', `body ${i}`]),
      ),
    );
    for (const r of results) expect(r.exitCode, r.stderr).to.equal(0);
    const calls = await repo.calls();
    expect(calls.map((c) => c.seq)).to.deep.equal(Array.from({ length: n }, (_, i) => i + 1));
    const state = await repo.state();
    const numbers = state.pull_requests.map((p) => p.number).sort((a, b) => a - b);
    expect(numbers).to.deep.equal(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(new Set(state.pull_requests.map((p) => p.head)).size).to.equal(40);
    const urls = results.filter((_, i) => i % 5 !== 4).map((r) => r.stdout);
    expect(new Set(urls).size).to.equal(40);
    expect(await stat(path.join(repo.recordDir, 'lock')).catch(() => undefined)).to.equal(
      undefined,
    );
  });

  it('breaks a stale lock left by a call that died', async () => {
    await execa('mkdir', ['-p', repo.recordDir]);
    await writeFile(path.join(repo.recordDir, 'lock'), '999999999\n');
    const old = new Date(Date.now() - 5000);
    await execa('touch', ['-d', old.toISOString(), path.join(repo.recordDir, 'lock')]);
    const r = await repo.gh(['pr', 'list']);
    expect(r.exitCode).to.equal(0);
    expect(await repo.calls()).to.have.length(1);
  });
});
