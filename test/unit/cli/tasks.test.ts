import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { execa } from 'execa';
import { maxOf } from '../../../src/cli/commands/tasks.js';
import { git } from '../../../src/git/index.js';
import { sourceOf } from '../../../src/mine/index.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const tsx = import.meta.resolve('tsx');

describe('evalrig tasks from-history', function () {
  this.timeout(60_000);
  let work: string;
  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'evalrig-tasks-'));
    const repo = path.join(work, 'repo');
    await git(['init', '-q', '-b', 'main', repo], { cwd: work });
    for (const [i, files] of [['index.js'], ['index.js', 'test/a.js']].entries()) {
      for (const f of files) {
        await execa('mkdir', ['-p', path.dirname(path.join(repo, f))]);
        await writeFile(path.join(repo, f), `v${i}`);
      }
      await git(['add', '-A'], { cwd: repo });
      await git(['commit', '-qm', `change ${i}`], { cwd: repo });
    }
  });
  after(() => rm(work, { recursive: true, force: true }));

  const evalrig = (args: string[]) =>
    execa(
      'node',
      ['--import', tsx, path.join(root, 'src/cli/main.ts'), 'tasks', 'from-history', ...args],
      {
        cwd: work,
        reject: false,
        env: { EVALRIG_CACHE_DIR: path.join(work, 'cache') },
      },
    );

  it('lists the candidates of a local codebase with --dry-run, and the dropped with why', async () => {
    const r = await evalrig(['repo', '--dry-run']);
    expect(r.exitCode, r.stderr).to.equal(0);
    expect(r.stdout).to.match(
      /^1 candidate in repo at [0-9a-f]{12} \(2 commits read, merges left out\):/u,
    );
    expect(r.stdout).to.include('change 1  (1 source, 1 test file: test/a.js)');
    expect(r.stdout).to.include('1 commit: the first commit: no parent to start from');
  });

  it("takes the codebase of --from's first eval when none is given", async () => {
    const from = path.join(work, 'theirs', 'evals.json');
    await execa('mkdir', ['-p', path.dirname(from)]);
    await writeFile(
      from,
      JSON.stringify({
        name: 'theirs',
        agent: { command: ['true'] },
        codebase: { path: '../repo' },
        evals: [{ id: 'one', prompt: 'p' }],
      }),
    );
    const r = await evalrig(['--from', from, '--dry-run']);
    expect(r.exitCode, r.stderr).to.equal(0);
    expect(r.stdout).to.match(/^1 candidate in .*repo at [0-9a-f]{12} \(2 commits read/u);
    expect(r.stdout).to.include('change 1  (1 source, 1 test file: test/a.js)');
  });

  it('refuses to mine with no test command or eval set to write, a command without {tests}, and a range the history lacks, with no stack', async () => {
    const r = await evalrig(['repo']);
    expect(r.exitCode).to.equal(2);
    expect(r.stderr).to.include(
      'give --test-command and --out (or --dry-run to list the candidates)',
    );
    const noFiles = await evalrig([
      'repo',
      '--test-command',
      'npm test',
      '--out',
      'mined/evals.json',
    ]);
    expect(noFiles.exitCode).to.equal(2);
    expect(noFiles.stderr).to.include('has no {tests}: write where the test files go');
    const mine = ['--test-command', 'tape {tests}', '--out', 'mined/evals.json'];
    const missing = await evalrig(['repo', ...mine, '--from', 'x.json']);
    expect(missing.exitCode).to.equal(2);
    expect(missing.stderr).to.include('x.json');
    expect(missing.stderr).to.not.include('    at ');
    const bare = await evalrig([
      'repo',
      ...mine,
      '--from',
      path.join(root, 'examples/pr-workflow/evals.json'),
    ]);
    expect(bare.exitCode).to.equal(2);
    expect(bare.stderr).to.include(
      '/evals/0/environment: its first eval names no environment to take',
    );
    const none = await evalrig([...mine]);
    expect(none.exitCode).to.equal(2);
    expect(none.stderr).to.include('tasks from-history needs a codebase');
    const bad = await evalrig(['repo', '--dry-run', '--range', 'nope..HEAD']);
    expect(bad.exitCode).to.equal(2);
    expect(bad.stderr).to.match(/--range nope\.\.HEAD: not a range of repo's history/u);
    expect(bad.stderr).to.not.include('    at ');
  });

  it('takes a git URL with --ref only, a path without it, and a whole --max of at least 1', () => {
    expect(sourceOf('https://example.org/a.git', 'main')).to.deep.equal({
      url: 'https://example.org/a.git',
      ref: 'main',
    });
    expect(sourceOf('git@example.org:a/b.git', 'v1')).to.deep.equal({
      url: 'git@example.org:a/b.git',
      ref: 'v1',
    });
    expect(() => sourceOf('https://example.org/a.git', undefined)).to.throw(/give --ref/u);
    expect(() => sourceOf('../here', 'main')).to.throw(/--ref goes with a git URL/u);
    expect(sourceOf('../here', undefined)).to.deep.equal({ path: '../here' });
    expect(maxOf('3')).to.equal(3);
    expect(() => maxOf('0')).to.throw(/--max must be a whole number/u);
    expect(() => maxOf('2.5')).to.throw(/--max must be a whole number/u);
  });
});
