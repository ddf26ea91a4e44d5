import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import {
  BASELINE_REF,
  WorkspaceError,
  measureDiff,
  sealWorkspace,
  prepareWorkspace,
  type WorkspaceSpec,
} from '../../../src/workspace/index.js';
import {
  defaultSharing,
  materializeCodebase,
  resolveCodebases,
  verifyCacheEntry,
  type ResolvedCodebase,
} from '../../../src/source/index.js';
import {
  makeSourceRepo,
  rawGit,
  tempDir,
  writeFiles,
  type SourceRepo,
} from '../source/fixtures.js';
import { NO_DIFF } from '../../support/records.js';

describe('workspace: task repositories made from the codebase cache', () => {
  let tmp: ReturnType<typeof tempDir>;
  let repo: SourceRepo;
  let host: string;
  let cacheDir: string;

  async function codebase(ref: string): Promise<{ resolved: ResolvedCodebase; cachePath: string }> {
    const [resolved] = await resolveCodebases([{ source: { url: repo.dir, ref }, baseDir: '/' }]);
    return { resolved: resolved!, cachePath: await materializeCodebase(resolved!, { cacheDir }) };
  }

  function spec(name: string, more: Partial<WorkspaceSpec> = {}): WorkspaceSpec {
    return { root: join(tmp.dir, 'envs', name), remote: { owner: 'acme', name: 'toy' }, ...more };
  }

  beforeEach(() => {
    tmp = tempDir('workspace');
    repo = makeSourceRepo(join(tmp.dir, 'toy'));
    // Build output in the source, ignored: never carried.
    writeFiles(repo.dir, { 'target/debug/app': 'binary', 'node_modules/dep/index.js': 'x' });
    host = join(tmp.dir, 'host');
    writeFiles(host, {
      'TASK.md': '# do the thing\n',
      'fixtures/data.log': 'ignored by *.log, placed by the runner\n',
      'skill/SKILL.md': '# skill\n',
    });
    cacheDir = join(tmp.dir, 'cache');
  });

  afterEach(() => tmp.cleanup());

  it('is the codebase with its history, on its branch, no commit of its own when nothing is placed, no source remote, a clean tree', async () => {
    const env = await prepareWorkspace(spec('e1', { codebase: await codebase('main') }));
    const work = env.workTree;
    expect(work).to.equal(join(tmp.dir, 'envs', 'e1', 'work'));
    expect(rawGit(work, 'log', '--format=%s')).to.equal('second\nfirst');
    expect(rawGit(work, 'rev-parse', 'HEAD')).to.equal(rawGit(repo.dir, 'rev-parse', 'HEAD'));
    expect(rawGit(work, 'rev-parse', BASELINE_REF)).to.equal(rawGit(work, 'rev-parse', 'HEAD'));
    expect(env.baseline).to.equal(rawGit(work, 'rev-parse', 'HEAD'));
    expect(rawGit(work, 'symbolic-ref', '--short', 'HEAD')).to.equal('main');
    expect(env).to.include({ branch: 'main', baseBranch: 'main' });
    expect(rawGit(work, 'status', '--porcelain', '--untracked-files=all')).to.equal('');
    expect(rawGit(work, 'remote', '-v').split('\n')).to.deep.equal([
      `origin\t${env.originPath} (fetch)`,
      `origin\t${env.originPath} (push)`,
    ]);
    expect(rawGit(work, 'for-each-ref', '--format=%(refname)')).to.not.contain(repo.dir);
    expect(rawGit(work, 'branch', '--format=%(refname:short)')).to.equal('main');
    expect(rawGit(work, 'log', '-1', '--format=%an <%ae>')).to.equal(
      rawGit(repo.dir, 'log', '-1', '--format=%an <%ae>'),
    );
    // What a clone leaves: tools asking git for the default branch find the codebase's.
    expect(rawGit(work, 'symbolic-ref', 'refs/remotes/origin/HEAD')).to.equal(
      'refs/remotes/origin/main',
    );
    expect(existsSync(join(work, 'target'))).to.equal(false);
    expect(existsSync(join(work, 'node_modules'))).to.equal(false);
    expect(existsSync(join(work, '.git', 'hooks'))).to.equal(false);
  });

  it('starts a tag on the default branch and a branch on its own branch', async () => {
    const tagged = await prepareWorkspace(spec('tag', { codebase: await codebase('v1.0') }));
    expect(rawGit(tagged.workTree, 'symbolic-ref', '--short', 'HEAD')).to.equal('main');
    expect(rawGit(tagged.workTree, 'rev-parse', 'HEAD')).to.equal(repo.commits[1]);
    const feature = await prepareWorkspace(
      spec('feature', { codebase: await codebase('feature') }),
    );
    expect(rawGit(feature.workTree, 'symbolic-ref', '--short', 'HEAD')).to.equal('feature');
    expect(rawGit(feature.workTree, 'log', '--format=%s')).to.equal('feature work\nfirst');
    expect(feature.baseBranch).to.equal('feature');
    expect(rawGit(feature.workTree, 'rev-parse', '--abbrev-ref', 'origin/HEAD')).to.equal(
      'origin/feature',
    );
  });

  it('commits what it placed as an ordinary project would, naming neither evalrig nor an evaluation', async () => {
    const env = await prepareWorkspace(
      spec('plain', {
        codebase: await codebase('main'),
        overlay: [{ from: join(host, 'TASK.md'), to: 'docs/TASK.md' }],
      }),
    );
    const work = env.workTree;
    expect(rawGit(work, 'log', '--format=%s')).to.equal('Add project files\nsecond\nfirst');
    const top = rawGit(work, 'log', '-1', '--format=%an <%ae>|%cn <%ce>|%B');
    expect(top).to.equal(
      'Alex Morgan <alex@example.com>|Alex Morgan <alex@example.com>|Add project files',
    );
    expect(top.toLowerCase()).to.not.match(/evalrig|eval|baseline|task/u);
    expect(rawGit(work, 'rev-parse', 'HEAD~1')).to.equal(repo.commits[1]);
  });

  it('commits with the message and author the eval set gives', async () => {
    const env = await prepareWorkspace(
      spec('given', {
        codebase: await codebase('main'),
        staged: [{ from: join(host, 'skill'), to: '.claude/skills/tdd' }],
        forcedPaths: ['.claude'],
        baselineCommit: {
          message: 'Vendor the tdd skill',
          author: { name: 'Jo Doe', email: 'jo@acme.test' },
        },
      }),
    );
    expect(rawGit(env.workTree, 'log', '-1', '--format=%an <%ae>|%cn <%ce>|%s')).to.equal(
      'Jo Doe <jo@acme.test>|Jo Doe <jo@acme.test>|Vendor the tdd skill',
    );
    expect(rawGit(env.workTree, 'ls-files', '.claude')).to.equal('.claude/skills/tdd/SKILL.md');
  });

  it("makes no commit when what it placed is already the codebase's, byte for byte", async () => {
    writeFiles(host, { 'README.md': '# toy\n' });
    const env = await prepareWorkspace(
      spec('same', {
        codebase: await codebase('main'),
        overlay: [{ from: join(host, 'README.md'), to: 'README.md' }],
      }),
    );
    expect(env.baseline).to.equal(repo.commits[1]);
    expect(rawGit(env.workTree, 'rev-parse', BASELINE_REF)).to.equal(repo.commits[1]);
    expect(rawGit(env.originPath, 'rev-parse', 'main')).to.equal(repo.commits[1]);
  });

  it("starts on the codebase's own default branch, not a made-up main", async () => {
    rawGit(repo.dir, 'branch', '-m', 'main', 'trunk');
    const env = await prepareWorkspace(spec('trunk', { codebase: await codebase('v1.0') }));
    expect(env).to.include({ branch: 'trunk', baseBranch: 'trunk' });
    expect(rawGit(env.workTree, 'branch', '-a', '--format=%(refname)').split('\n')).to.deep.equal([
      'refs/heads/trunk',
      'refs/remotes/origin/HEAD',
      'refs/remotes/origin/trunk',
    ]);
    expect(rawGit(env.workTree, 'rev-parse', '--abbrev-ref', 'origin/HEAD')).to.equal(
      'origin/trunk',
    );
  });

  it('places the overlay at its declared paths and forces runner paths into the baseline though ignored', async () => {
    const env = await prepareWorkspace(
      spec('overlay', {
        codebase: await codebase('main'),
        overlay: [
          { from: join(host, 'TASK.md'), to: 'docs/TASK.md' },
          { from: join(host, 'fixtures'), to: 'fixtures' },
        ],
        staged: [{ from: join(host, 'skill'), to: '.claude/skills/tdd' }],
        forcedPaths: ['.claude', '.codex'],
      }),
    );
    const work = env.workTree;
    expect(readFileSync(join(work, 'docs', 'TASK.md'), 'utf8')).to.equal('# do the thing\n');
    const baseline = rawGit(work, 'ls-tree', '-r', '--name-only', BASELINE_REF).split('\n');
    expect(baseline).to.include.members([
      'docs/TASK.md',
      'fixtures/data.log',
      '.claude/skills/tdd/SKILL.md',
      'src/lib.txt',
    ]);
    expect(rawGit(work, 'check-ignore', '--no-index', '.claude/skills/tdd/SKILL.md')).to.equal(
      '.claude/skills/tdd/SKILL.md',
    );
    expect(rawGit(work, 'status', '--porcelain')).to.equal('');
  });

  it('keeps ignored output a runner did not place out of the baseline', async () => {
    const built = join(host, 'built');
    writeFiles(built, { 'a.txt': 'kept\n' });
    const env = await prepareWorkspace(
      spec('ignored', {
        codebase: await codebase('main'),
        overlay: [{ from: built, to: 'pkg' }],
        forcedPaths: ['.claude'],
      }),
    );
    // Make ignored output appear after the fact: measuring must not see it either.
    writeFiles(env.workTree, { 'target/out.bin': 'x', 'pkg/debug.log': 'y' });
    const tree = rawGit(env.workTree, 'ls-tree', '-r', '--name-only', BASELINE_REF);
    expect(tree).to.contain('pkg/a.txt');
    expect(tree).to.not.match(/target|node_modules|debug\.log/);
  });

  it('hardlinks objects from the cache into every workspace of one commit', async () => {
    const cb = { ...(await codebase('main')), sharing: 'hardlink' as const };
    const one = await prepareWorkspace(spec('h1', { codebase: cb }));
    const two = await prepareWorkspace(spec('h2', { codebase: cb }));
    expect(one.objects).to.equal('hardlink');
    const packs = readdirSync(join(cb.cachePath, 'objects', 'pack')).filter((f) =>
      f.endsWith('.pack'),
    );
    expect(packs).to.have.length(1);
    const pack = packs[0]!;
    const cached = statSync(join(cb.cachePath, 'objects', 'pack', pack));
    for (const env of [one, two]) {
      const linked = statSync(join(env.workTree, '.git', 'objects', 'pack', pack));
      expect(linked.ino).to.equal(cached.ino);
      const inOrigin = statSync(join(env.originPath, 'objects', 'pack', pack));
      expect(inOrigin.ino).to.equal(cached.ino);
    }
    // cache + two work trees + two origins
    expect(cached.nlink).to.equal(5);
  });

  it('has a local bare origin holding the baseline, at the URL asked for, and a prepared start branch', async () => {
    const env = await prepareWorkspace(
      spec('origin', {
        codebase: await codebase('main'),
        originUrl: '/remote/acme/toy.git',
        startBranch: 'agent/work',
      }),
    );
    expect(env.originPath).to.equal(join(tmp.dir, 'envs', 'origin', 'remote', 'acme', 'toy.git'));
    expect(rawGit(env.originPath, 'rev-parse', '--is-bare-repository')).to.equal('true');
    expect(rawGit(env.originPath, 'for-each-ref', '--format=%(refname) %(objectname)')).to.equal(
      `refs/heads/agent/work ${env.baseline}\nrefs/heads/main ${env.baseline}`,
    );
    expect(rawGit(env.originPath, 'symbolic-ref', 'HEAD')).to.equal('refs/heads/main');
    expect(rawGit(env.originPath, 'remote')).to.equal('');
    expect(rawGit(env.workTree, 'remote', 'get-url', 'origin')).to.equal('/remote/acme/toy.git');
    expect(env).to.include({ branch: 'agent/work', baseBranch: 'main' });
    expect(rawGit(env.workTree, 'symbolic-ref', '--short', 'HEAD')).to.equal('agent/work');
    expect(rawGit(env.workTree, 'rev-parse', '--abbrev-ref', '@{upstream}')).to.equal(
      'origin/agent/work',
    );
    // Pushes work against the host path of the origin.
    writeFiles(env.workTree, { 'new.txt': 'n\n' });
    rawGit(env.workTree, 'add', 'new.txt');
    rawGit(env.workTree, 'commit', '-q', '-m', 'agent change');
    rawGit(env.workTree, 'push', '-q', env.originPath, 'agent/work');
    expect(rawGit(env.originPath, 'log', '-1', '--format=%s', 'agent/work')).to.equal(
      'agent change',
    );
  });

  it('without a codebase is a fresh repository holding only the overlay', async () => {
    const env = await prepareWorkspace(
      spec('fresh', { overlay: [{ from: join(host, 'TASK.md'), to: 'TASK.md' }] }),
    );
    expect(rawGit(env.workTree, 'log', '--format=%s')).to.equal('Add project files');
    expect(rawGit(env.workTree, 'ls-files')).to.equal('TASK.md');
    expect(env).to.include({ branch: 'main', baseBranch: 'main' });
    expect(rawGit(env.originPath, 'rev-parse', 'main')).to.equal(env.baseline);
  });

  it('refuses a folder that is not empty, a target outside the work tree, and a bad remote name', async () => {
    const busy = join(tmp.dir, 'busy');
    mkdirSync(busy);
    writeFileSync(join(busy, 'x'), 'x');
    const refuse = async (s: WorkspaceSpec): Promise<Error> =>
      prepareWorkspace(s).then(
        () => new Error('no failure'),
        (error: Error) => error,
      );
    const notEmpty = await refuse({ ...spec('x'), root: busy });
    expect(notEmpty).to.be.instanceOf(WorkspaceError);
    expect(notEmpty.message).to.equal(`workspace folder ${busy} already exists and is not empty`);
    const outside = await refuse(
      spec('y', { overlay: [{ from: join(host, 'TASK.md'), to: '../up' }] }),
    );
    expect(outside.message).to.equal('overlay target "../up" must be a path inside the work tree');
    const intoGit = await refuse(
      spec('z', { staged: [{ from: join(host, 'TASK.md'), to: '.git/hooks/x' }] }),
    );
    expect(intoGit.message).to.equal('staged path target ".git/hooks/x" points into .git');
    const remote = await refuse({ ...spec('w'), remote: { owner: '..', name: 'toy' } });
    expect(remote).to.be.instanceOf(WorkspaceError);
  });

  it('keeps working from a cache whose objects were chowned to uid 1000 through a workspace', async function () {
    if (process.getuid?.() !== 0) this.skip();
    const cb = await codebase('main');
    await prepareWorkspace(spec('owned', { codebase: cb }));
    // Objects are hardlinked: chowning the workspace chowns the cached pack too.
    execFileSync('chown', ['-R', '1000:1000', join(tmp.dir, 'envs', 'owned')]);
    const pack = readdirSync(join(cb.cachePath, 'objects', 'pack')).find((f) =>
      f.endsWith('.pack'),
    )!;
    expect(statSync(join(cb.cachePath, 'objects', 'pack', pack)).uid).to.equal(1000);
    const second = await prepareWorkspace(spec('after', { codebase: cb }));
    expect(rawGit(second.workTree, 'rev-parse', 'HEAD')).to.equal(repo.commits[1]);
  });

  /** Every object name a repository stores, packed or loose, reachable or not. */
  function allObjects(path: string): string[] {
    return rawGit(path, 'cat-file', '--batch-all-objects', '--batch-check=%(objectname)')
      .split('\n')
      .sort();
  }

  it('holds only the objects of the resolved commit and the baseline: the future is not there', async () => {
    writeFiles(repo.dir, { 'future.txt': 'the real fix\n' });
    rawGit(repo.dir, 'add', 'future.txt');
    rawGit(repo.dir, 'commit', '-q', '-m', 'the future');
    rawGit(repo.dir, 'tag', 'v2.0');
    const env = await prepareWorkspace(
      spec('past', {
        codebase: await codebase('v1.0'),
        staged: [{ from: join(host, 'skill'), to: '.claude/skills/tdd' }],
        startBranch: 'agent/work',
      }),
    );
    const reachable = rawGit(env.workTree, 'rev-list', '--objects', env.baseline)
      .split('\n')
      .map((line) => line.split(' ')[0]!)
      .sort();
    expect(allObjects(env.workTree)).to.deep.equal(reachable);
    expect(allObjects(env.originPath)).to.deep.equal(reachable);
    const future = rawGit(repo.dir, 'rev-parse', 'HEAD');
    expect(reachable).to.not.include.members([future, repo.feature]);
    expect(rawGit(env.workTree, 'for-each-ref', '--format=%(refname)').split('\n')).to.deep.equal([
      'refs/evalrig/baseline',
      'refs/heads/agent/work',
      'refs/heads/main',
      'refs/remotes/origin/HEAD',
      'refs/remotes/origin/agent/work',
      'refs/remotes/origin/main',
    ]);
    expect(rawGit(env.workTree, 'tag')).to.equal('');
  });

  it('copies the pack rather than sharing its inode when asked (the default when not root)', async () => {
    expect(defaultSharing(0)).to.equal('hardlink');
    expect(defaultSharing(1000)).to.equal('copy');
    const cb = { ...(await codebase('main')), sharing: 'copy' as const };
    const env = await prepareWorkspace(spec('copied', { codebase: cb }));
    expect(env.objects).to.equal('copy');
    const packDir = join(cb.cachePath, 'objects', 'pack');
    for (const file of readdirSync(packDir)) {
      const cached = statSync(join(packDir, file));
      const own = statSync(join(env.workTree, '.git', 'objects', 'pack', file));
      expect(own.ino).to.not.equal(cached.ino);
      expect(cached.nlink, file).to.equal(1);
      expect(own.mode & 0o222).to.equal(0);
    }
    // A run rewriting its own pack leaves the cache as it was.
    const pack = readdirSync(packDir).find((f) => f.endsWith('.pack'))!;
    const own = join(env.workTree, '.git', 'objects', 'pack', pack);
    chmodSync(own, 0o644);
    writeFileSync(own, 'poisoned');
    expect(await verifyCacheEntry(cb.cachePath, cb.resolved.commit)).to.equal(undefined);
    const next = await prepareWorkspace(spec('next', { codebase: cb }));
    expect(rawGit(next.workTree, 'rev-parse', 'HEAD')).to.equal(repo.commits[1]);
    expect(rawGit(next.workTree, 'status', '--porcelain')).to.equal('');
  });

  it('charges an idle agent nothing for files a fresh checkout shows as changed (CRLF under text)', async () => {
    // Committed with CRLF before the attribute came: a checkout shows them changed.
    writeFiles(repo.dir, { 'win.txt': 'one\r\ntwo\r\n', 'sub/also.txt': 'a\r\nb\r\n' });
    rawGit(repo.dir, 'add', 'win.txt', 'sub/also.txt');
    rawGit(repo.dir, 'commit', '-q', '-m', 'crlf files');
    writeFiles(repo.dir, { '.gitattributes': '*.txt text\n' });
    rawGit(repo.dir, 'add', '.gitattributes');
    rawGit(repo.dir, 'commit', '-q', '-m', 'normalise text');
    const cb = await codebase('main');
    const env = await prepareWorkspace(
      spec('crlf', { codebase: cb, overlay: [{ from: join(host, 'TASK.md'), to: 'TASK.md' }] }),
    );
    // The agent sees the checkout as it is; the baseline holds what git add makes of it.
    expect(readFileSync(join(env.workTree, 'win.txt'), 'utf8')).to.equal('one\r\ntwo\r\n');
    expect(rawGit(env.workTree, 'show', `${BASELINE_REF}:win.txt`)).to.equal('one\ntwo');
    expect(rawGit(env.workTree, 'show', `${BASELINE_REF}:sub/also.txt`)).to.equal('a\nb');
    const seal = await sealWorkspace(env, `${env.workTree}-host`, [join(cb.cachePath, 'objects')]);
    expect(await measureDiff(seal)).to.include({ ...NO_DIFF, patch: '' });
    // Re-reading every file changes nothing.
    rawGit(env.workTree, 'add', '--renormalize', '.');
    expect(rawGit(env.workTree, 'diff', '--cached', '--name-only', BASELINE_REF)).to.equal('');
    expect(rawGit(env.workTree, 'status', '--porcelain')).to.equal('');
  });

  describe('a codebase that tracks symbolic links where the harness writes', () => {
    let outside: string;
    beforeEach(() => {
      outside = join(tmp.dir, 'host-folder');
      writeFiles(outside, { 'keep.txt': 'host file\n' });
    });

    it('gets a real folder in place of a tracked link, and nothing is written through it', async () => {
      symlinkSync(outside, join(repo.dir, '.claude'));
      symlinkSync(outside, join(repo.dir, 'docs'));
      symlinkSync(join(outside, 'keep.txt'), join(repo.dir, 'NOTES.md'));
      rawGit(repo.dir, 'add', '-f', '.claude', 'docs', 'NOTES.md');
      rawGit(repo.dir, 'commit', '-q', '-m', 'links to the host');
      const env = await prepareWorkspace(
        spec('links', {
          codebase: await codebase('main'),
          overlay: [
            { from: join(host, 'TASK.md'), to: 'docs/TASK.md' },
            { from: join(host, 'TASK.md'), to: 'NOTES.md' },
          ],
          staged: [{ from: join(host, 'skill'), to: '.claude/skills/tdd' }],
          forcedPaths: ['.claude'],
        }),
      );
      expect(readdirSync(outside)).to.deep.equal(['keep.txt']);
      expect(readFileSync(join(outside, 'keep.txt'), 'utf8')).to.equal('host file\n');
      for (const path of ['.claude', 'docs']) {
        expect(lstatSync(join(env.workTree, path)).isDirectory(), path).to.equal(true);
      }
      expect(lstatSync(join(env.workTree, 'NOTES.md')).isFile()).to.equal(true);
      const tree = rawGit(env.workTree, 'ls-tree', '-r', BASELINE_REF).split('\n');
      expect(tree.filter((line) => line.startsWith('120000'))).to.deep.equal([]);
      expect(tree.map((line) => line.split('\t')[1])).to.include.members([
        '.claude/skills/tdd/SKILL.md',
        'docs/TASK.md',
        'NOTES.md',
      ]);
      expect(rawGit(env.workTree, 'status', '--porcelain')).to.equal('');
    });

    it('forces no harness path that lies beyond a tracked link', async () => {
      writeFiles(outside, { 'settings.json': '{}\n' });
      symlinkSync(outside, join(repo.dir, '.claude'));
      rawGit(repo.dir, 'add', '-f', '.claude');
      rawGit(repo.dir, 'commit', '-q', '-m', 'a link to the host');
      const env = await prepareWorkspace(
        spec('beyond', {
          codebase: await codebase('main'),
          forcedPaths: ['.claude', '.claude/settings.json'],
        }),
      );
      expect(lstatSync(join(env.workTree, '.claude')).isSymbolicLink()).to.equal(true);
      expect(rawGit(env.workTree, 'ls-tree', BASELINE_REF, '.claude')).to.match(/^120000 /);
      expect(rawGit(env.workTree, 'status', '--porcelain')).to.equal('');
    });

    it('replaces a tracked link inside a placed folder, and a tracked folder where a file goes', async () => {
      writeFiles(repo.dir, { 'cfg/SKILL.md/inner.txt': 'a folder where a file goes\n' });
      mkdirSync(join(repo.dir, 'kit'));
      symlinkSync(join(outside, 'keep.txt'), join(repo.dir, 'kit', 'SKILL.md'));
      rawGit(repo.dir, 'add', '-f', 'cfg', 'kit');
      rawGit(repo.dir, 'commit', '-q', '-m', 'more links');
      const env = await prepareWorkspace(
        spec('nested', {
          codebase: await codebase('main'),
          staged: [
            { from: join(host, 'skill'), to: 'kit' },
            { from: join(host, 'skill'), to: 'cfg' },
          ],
        }),
      );
      expect(readFileSync(join(outside, 'keep.txt'), 'utf8')).to.equal('host file\n');
      expect(readFileSync(join(env.workTree, 'kit', 'SKILL.md'), 'utf8')).to.equal('# skill\n');
      expect(readFileSync(join(env.workTree, 'cfg', 'SKILL.md'), 'utf8')).to.equal('# skill\n');
      expect(rawGit(env.workTree, 'status', '--porcelain')).to.equal('');
    });
  });

  describe('output and cache on different filesystems', () => {
    let mount: string | undefined;
    afterEach(() => {
      if (mount) execFileSync('umount', [mount]);
      mount = undefined;
    });

    it('copies the pack where a hardlink cannot cross (a tmpfs made for the test)', async function () {
      if (process.getuid?.() !== 0) this.skip();
      mount = join(tmp.dir, 'other-fs');
      mkdirSync(mount);
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64m', 'evalrig-test', mount]);
      cacheDir = join(mount, 'cache');
      const cb = { ...(await codebase('v1.0')), sharing: 'hardlink' as const };
      expect(statSync(cb.cachePath).dev).to.not.equal(statSync(tmp.dir).dev);
      // The eval set's files on the other filesystem too.
      writeFiles(join(mount, 'evals'), { 'TASK.md': '# from elsewhere\n' });
      const env = await prepareWorkspace(
        spec('cross', {
          codebase: cb,
          overlay: [{ from: join(mount, 'evals', 'TASK.md'), to: 'TASK.md' }],
        }),
      );
      expect(rawGit(env.workTree, 'show', `${BASELINE_REF}:TASK.md`)).to.equal('# from elsewhere');
      expect(env.objects).to.equal('copy');
      expect(rawGit(env.workTree, 'rev-parse', 'HEAD~1')).to.equal(repo.commits[1]);
      expect(rawGit(env.workTree, 'status', '--porcelain')).to.equal('');
      expect(rawGit(env.originPath, 'rev-parse', 'main')).to.equal(env.baseline);
    });
  });
});
