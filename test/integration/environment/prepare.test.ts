import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  BASELINE_REF,
  EnvironmentError,
  prepareEnvironment,
  type EnvironmentSpec,
} from '../../../src/environment/index.js';
import {
  materializeCodebase,
  resolveCodebases,
  type ResolvedCodebase,
} from '../../../src/source/index.js';
import {
  makeSourceRepo,
  rawGit,
  tempDir,
  writeFiles,
  type SourceRepo,
} from '../source/fixtures.js';

describe('environment: task repositories made from the codebase cache', () => {
  let tmp: ReturnType<typeof tempDir>;
  let repo: SourceRepo;
  let host: string;
  let cacheDir: string;

  async function codebase(ref: string): Promise<{ resolved: ResolvedCodebase; cachePath: string }> {
    const [resolved] = await resolveCodebases([{ source: { url: repo.dir, ref }, baseDir: '/' }]);
    return { resolved: resolved!, cachePath: await materializeCodebase(resolved!, { cacheDir }) };
  }

  function spec(name: string, more: Partial<EnvironmentSpec> = {}): EnvironmentSpec {
    return { root: join(tmp.dir, 'envs', name), remote: { owner: 'acme', name: 'toy' }, ...more };
  }

  beforeEach(() => {
    tmp = tempDir('environment');
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

  it('is the codebase with its history, on its branch, a baseline on top, no source remote, a clean tree', async () => {
    const env = await prepareEnvironment(spec('e1', { codebase: await codebase('main') }));
    const work = env.workTree;
    expect(work).to.equal(join(tmp.dir, 'envs', 'e1', 'work'));
    expect(rawGit(work, 'log', '--format=%s')).to.equal('evalrig task baseline\nsecond\nfirst');
    expect(rawGit(work, 'rev-parse', 'HEAD~1')).to.equal(rawGit(repo.dir, 'rev-parse', 'HEAD'));
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
    expect(rawGit(work, 'log', '-1', '--format=%an <%ae>')).to.equal('evalrig <evalrig@localhost>');
    expect(existsSync(join(work, 'target'))).to.equal(false);
    expect(existsSync(join(work, 'node_modules'))).to.equal(false);
    expect(existsSync(join(work, '.git', 'hooks'))).to.equal(false);
  });

  it('starts a tag on the default branch and a branch on its own branch', async () => {
    const tagged = await prepareEnvironment(spec('tag', { codebase: await codebase('v1.0') }));
    expect(rawGit(tagged.workTree, 'symbolic-ref', '--short', 'HEAD')).to.equal('main');
    expect(rawGit(tagged.workTree, 'rev-parse', 'HEAD~1')).to.equal(repo.commits[1]);
    const feature = await prepareEnvironment(
      spec('feature', { codebase: await codebase('feature') }),
    );
    expect(rawGit(feature.workTree, 'symbolic-ref', '--short', 'HEAD')).to.equal('feature');
    expect(rawGit(feature.workTree, 'log', '--format=%s')).to.equal(
      'evalrig task baseline\nfeature work\nfirst',
    );
    expect(feature.baseBranch).to.equal('feature');
  });

  it('places the overlay at its declared paths and forces runner paths into the baseline though ignored', async () => {
    const env = await prepareEnvironment(
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
    const env = await prepareEnvironment(
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

  it('hardlinks objects from the cache into every environment of one commit', async () => {
    const cb = await codebase('main');
    const one = await prepareEnvironment(spec('h1', { codebase: cb }));
    const two = await prepareEnvironment(spec('h2', { codebase: cb }));
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
    const env = await prepareEnvironment(
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
    const env = await prepareEnvironment(
      spec('fresh', { overlay: [{ from: join(host, 'TASK.md'), to: 'TASK.md' }] }),
    );
    expect(rawGit(env.workTree, 'log', '--format=%s')).to.equal('evalrig task baseline');
    expect(rawGit(env.workTree, 'ls-files')).to.equal('TASK.md');
    expect(env).to.include({ branch: 'main', baseBranch: 'main' });
    expect(rawGit(env.originPath, 'rev-parse', 'main')).to.equal(env.baseline);
  });

  it('refuses a folder that is not empty, a target outside the work tree, and a bad remote name', async () => {
    const busy = join(tmp.dir, 'busy');
    mkdirSync(busy);
    writeFileSync(join(busy, 'x'), 'x');
    const refuse = async (s: EnvironmentSpec): Promise<Error> =>
      prepareEnvironment(s).then(
        () => new Error('no failure'),
        (error: Error) => error,
      );
    const notEmpty = await refuse({ ...spec('x'), root: busy });
    expect(notEmpty).to.be.instanceOf(EnvironmentError);
    expect(notEmpty.message).to.equal(`environment folder ${busy} already exists and is not empty`);
    const outside = await refuse(
      spec('y', { overlay: [{ from: join(host, 'TASK.md'), to: '../up' }] }),
    );
    expect(outside.message).to.equal('overlay target "../up" must be a path inside the work tree');
    const intoGit = await refuse(
      spec('z', { staged: [{ from: join(host, 'TASK.md'), to: '.git/hooks/x' }] }),
    );
    expect(intoGit.message).to.equal('staged path target ".git/hooks/x" points into .git');
    const remote = await refuse({ ...spec('w'), remote: { owner: '..', name: 'toy' } });
    expect(remote).to.be.instanceOf(EnvironmentError);
  });

  it('keeps working from a cache whose objects were chowned to uid 1000 through an environment', async function () {
    if (process.getuid?.() !== 0) this.skip();
    const cb = await codebase('main');
    await prepareEnvironment(spec('owned', { codebase: cb }));
    // Objects are hardlinked: chowning the environment chowns the cached pack too.
    execFileSync('chown', ['-R', '1000:1000', join(tmp.dir, 'envs', 'owned')]);
    const pack = readdirSync(join(cb.cachePath, 'objects', 'pack')).find((f) =>
      f.endsWith('.pack'),
    )!;
    expect(statSync(join(cb.cachePath, 'objects', 'pack', pack)).uid).to.equal(1000);
    const second = await prepareEnvironment(spec('after', { codebase: cb }));
    expect(rawGit(second.workTree, 'rev-parse', 'HEAD~1')).to.equal(repo.commits[1]);
  });
});
