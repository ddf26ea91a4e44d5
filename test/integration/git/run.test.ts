import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import {
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GitError, git, runGit } from '../../../src/git/index.js';
import { rawGit } from '../source/fixtures.js';

function makeRepo(dir: string, content: string): string {
  mkdirSync(dir, { recursive: true });
  rawGit(dir, 'init', '-q', '-b', 'main');
  writeFileSync(join(dir, 'file.txt'), content);
  rawGit(dir, 'add', '.');
  rawGit(dir, 'commit', '-q', '-m', content);
  return rawGit(dir, 'rev-parse', 'HEAD');
}

/** Sets process variables for the duration of `body`, then restores them. */
async function withEnv(vars: Record<string, string>, body: () => Promise<void>): Promise<void> {
  const saved = Object.fromEntries(Object.keys(vars).map((key) => [key, process.env[key]]));
  Object.assign(process.env, vars);
  try {
    await body();
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}

describe('src/git: runGit, isolated from the operator', () => {
  let tmp: string;
  let real: string;
  let decoy: string;
  let realHead: string;

  beforeEach(() => {
    tmp = mkdtempSync(join(tmpdir(), 'evalrig-git-test-'));
    real = join(tmp, 'real');
    decoy = join(tmp, 'decoy');
    realHead = makeRepo(real, 'real');
    makeRepo(decoy, 'decoy');
  });

  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  it('ignores url.<base>.insteadOf from an inherited global config', async () => {
    const globalConfig = join(tmp, 'operator.gitconfig');
    writeFileSync(globalConfig, `[url "${decoy}"]\n\tinsteadOf = ${real}\n`);
    // The operator's git really rewrites the URL...
    const rewritten = execFileSync('git', ['ls-remote', real, 'HEAD'], {
      env: { PATH: process.env.PATH ?? '', GIT_CONFIG_GLOBAL: globalConfig },
      encoding: 'utf8',
    });
    expect(rewritten).not.to.contain(realHead);
    // ...evalrig's does not.
    await withEnv({ GIT_CONFIG_GLOBAL: globalConfig, HOME: tmp }, async () => {
      writeFileSync(join(tmp, '.gitconfig'), `[url "${decoy}"]\n\tinsteadOf = ${real}\n`);
      const out = await git(['ls-remote', real, 'HEAD'], { cwd: tmp, transport: 'any' });
      expect(out).to.equal(`${realHead}\tHEAD`);
    });
  });

  it('ignores url.<base>.insteadOf injected through GIT_CONFIG_COUNT and GIT_CONFIG_PARAMETERS', async () => {
    await withEnv(
      {
        GIT_CONFIG_COUNT: '1',
        GIT_CONFIG_KEY_0: `url.${decoy}.insteadOf`,
        GIT_CONFIG_VALUE_0: real,
        GIT_CONFIG_PARAMETERS: `'url.${decoy}.insteadof'='${real}'`,
      },
      async () => {
        const out = await git(['ls-remote', real, 'HEAD'], { cwd: tmp, transport: 'any' });
        expect(out).to.equal(`${realHead}\tHEAD`);
      },
    );
  });

  it('ignores inherited routing variables (GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE)', async () => {
    await withEnv(
      {
        GIT_DIR: join(decoy, '.git'),
        GIT_WORK_TREE: decoy,
        GIT_INDEX_FILE: join(decoy, '.git', 'index'),
      },
      async () => {
        expect(await git(['rev-parse', 'HEAD'], { cwd: real })).to.equal(realHead);
      },
    );
  });

  it('does not seed hooks from a configured template directory (init.templateDir, GIT_TEMPLATE_DIR)', async () => {
    const template = join(tmp, 'template');
    mkdirSync(join(template, 'hooks'), { recursive: true });
    writeFileSync(join(template, 'hooks', 'pre-commit'), '#!/bin/sh\nexit 1\n', { mode: 0o755 });
    writeFileSync(join(tmp, '.gitconfig'), `[init]\n\ttemplateDir = ${template}\n`);
    await withEnv({ HOME: tmp, GIT_TEMPLATE_DIR: template }, async () => {
      await git(['init', '-q', 'fresh'], { cwd: tmp });
      await git(['clone', '-q', real, 'cloned'], { cwd: tmp, transport: 'any' });
    });
    for (const repo of ['fresh', 'cloned']) {
      const hooks = join(tmp, repo, '.git', 'hooks');
      expect(existsSync(hooks) ? readdirSync(hooks) : []).to.deep.equal([]);
    }
  });

  it('never runs hooks present in a repository', async () => {
    const marker = join(tmp, 'hook-ran');
    writeFileSync(
      join(real, '.git', 'hooks', 'pre-commit'),
      `#!/bin/sh\ntouch ${marker}\nexit 1\n`,
      {
        mode: 0o755,
      },
    );
    await git(['commit', '-q', '--allow-empty', '-m', 'no hook'], { cwd: real });
    expect(existsSync(marker)).to.equal(false);
  });

  it('commits as evalrig <evalrig@localhost>, on a fixed date unless one is given', async () => {
    await git(['commit', '-q', '--allow-empty', '-m', 'fixed'], { cwd: real });
    expect(await git(['log', '-1', '--format=%an <%ae>|%cn <%ce>|%at'], { cwd: real })).to.equal(
      'evalrig <evalrig@localhost>|evalrig <evalrig@localhost>|946684800',
    );
    await git(['commit', '-q', '--allow-empty', '-m', 'given'], {
      cwd: real,
      date: '2021-06-01T12:00:00+0000',
    });
    expect(await git(['log', '-1', '--format=%ct'], { cwd: real })).to.equal('1622548800');
  });

  it('works in a repository owned by uid 1000 while running as another user', async function () {
    if (process.getuid?.() !== 0) this.skip();
    execFileSync('chown', ['-R', '1000:1000', real]);
    chownSync(real, 1000, 1000);
    // Plain git refuses it...
    expect(() =>
      execFileSync('git', ['rev-parse', 'HEAD'], {
        cwd: real,
        env: {
          PATH: process.env.PATH ?? '',
          GIT_CONFIG_GLOBAL: '/dev/null',
          GIT_CONFIG_NOSYSTEM: '1',
        },
        stdio: 'pipe',
      }),
    ).to.throw(/dubious ownership/);
    // ...evalrig's git works, reading and writing.
    expect(await git(['rev-parse', 'HEAD'], { cwd: real })).to.equal(realHead);
    await git(['commit', '-q', '--allow-empty', '-m', 'as root'], { cwd: real });
    await git(['clone', '-q', '--local', real, join(tmp, 'clone-of-1000')], {
      cwd: tmp,
      transport: 'any',
    });
    expect(await git(['rev-parse', 'HEAD~1'], { cwd: join(tmp, 'clone-of-1000') })).to.equal(
      realHead,
    );
  });

  it('throws a GitError quoting the command and git, or reports the exit code when reject is false', async () => {
    const failure = await git(['rev-parse', 'no-such-ref'], { cwd: real }).catch(
      (error: unknown) => error,
    );
    expect(failure).to.be.instanceOf(GitError);
    expect((failure as GitError).message).to.match(
      /git rev-parse no-such-ref failed in .*real \(exit 128\)/,
    );
    const probe = await runGit(['cat-file', '-e', 'no-such-ref'], { cwd: real, reject: false });
    expect(probe.exitCode).to.not.equal(0);
  });

  it('keeps at most maxStdoutBytes of output and counts the rest', async () => {
    writeFileSync(join(real, 'big.txt'), 'x'.repeat(10_000));
    const result = await runGit(['hash-object', '--stdin'], { cwd: real, input: 'abc' });
    expect(result.stdout.trim()).to.match(/^[0-9a-f]{40}$/);
    const capped = await runGit(['cat-file', '-p', `${realHead}:file.txt`], {
      cwd: real,
      maxStdoutBytes: 2,
    });
    expect(capped).to.include({ stdout: 're', stdoutBytes: 4, stdoutTruncated: true });
    const whole = await runGit(['cat-file', '-p', `${realHead}:file.txt`], {
      cwd: real,
      maxStdoutBytes: 100,
    });
    expect(whole).to.include({ stdout: 'real', stdoutBytes: 4, stdoutTruncated: false });
  });
});
