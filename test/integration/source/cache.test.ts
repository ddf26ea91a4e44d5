import { expect } from 'chai';
import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { cacheRoot, materializeCodebase, resolveCodebases } from '../../../src/source/index.js';
import { makeSourceRepo, rawGit, tempDir, type SourceRepo } from './fixtures.js';

describe('source: the per-commit codebase cache', () => {
  let tmp: ReturnType<typeof tempDir>;
  let repo: SourceRepo;
  let bare: string;
  let cacheDir: string;

  beforeEach(() => {
    tmp = tempDir('cache');
    repo = makeSourceRepo(join(tmp.dir, 'toy'));
    bare = join(tmp.dir, 'toy.git');
    rawGit(tmp.dir, 'clone', '-q', '--bare', repo.dir, bare);
    cacheDir = join(tmp.dir, 'cache');
  });

  afterEach(() => tmp.cleanup());

  it('is the option, else $EVALRIG_CACHE_DIR, else ${XDG_CACHE_HOME:-~/.cache}/evalrig/codebases', () => {
    const saved = { e: process.env.EVALRIG_CACHE_DIR, x: process.env.XDG_CACHE_HOME };
    try {
      process.env.EVALRIG_CACHE_DIR = '/from/env';
      expect(cacheRoot({ cacheDir: '/from/option' })).to.equal('/from/option');
      expect(cacheRoot()).to.equal('/from/env');
      delete process.env.EVALRIG_CACHE_DIR;
      process.env.XDG_CACHE_HOME = '/xdg';
      expect(cacheRoot()).to.equal('/xdg/evalrig/codebases');
      delete process.env.XDG_CACHE_HOME;
      expect(cacheRoot()).to.equal(join(homedir(), '.cache', 'evalrig', 'codebases'));
    } finally {
      if (saved.e === undefined) delete process.env.EVALRIG_CACHE_DIR;
      else process.env.EVALRIG_CACHE_DIR = saved.e;
      if (saved.x === undefined) delete process.env.XDG_CACHE_HOME;
      else process.env.XDG_CACHE_HOME = saved.x;
    }
  });

  it('holds one bare clone per commit, with history, the commit pinned and no remote', async () => {
    const [resolved] = await resolveCodebases([
      { source: { url: bare, ref: 'v1.0' }, baseDir: tmp.dir },
    ]);
    const path = await materializeCodebase(resolved!, { cacheDir });
    expect(path).to.equal(join(cacheDir, repo.commits[1] ?? ''));
    expect(rawGit(path, 'rev-parse', '--is-bare-repository')).to.equal('true');
    expect(rawGit(path, 'rev-parse', 'refs/evalrig/commit')).to.equal(repo.commits[1]);
    expect(rawGit(path, 'log', '--format=%s', 'refs/evalrig/commit')).to.equal('second\nfirst');
    expect(rawGit(path, 'remote')).to.equal('');
    expect(rawGit(path, 'count-objects', '-v')).to.match(/^count: 0$/m);
  });

  it('is reused: a second materialization of the commit returns the same clone untouched', async () => {
    const [resolved] = await resolveCodebases([
      { source: { url: bare, ref: 'main' }, baseDir: tmp.dir },
    ]);
    const first = await materializeCodebase(resolved!, { cacheDir });
    const marker = rawGit(first, 'rev-parse', 'refs/evalrig/commit');
    rawGit(first, 'update-ref', 'refs/test/marker', marker);
    const second = await materializeCodebase(resolved!, { cacheDir });
    expect(second).to.equal(first);
    expect(rawGit(second, 'rev-parse', 'refs/test/marker')).to.equal(marker);
  });

  it('is safe when several fill the same commit at once: one entry, no leftovers', async () => {
    const [resolved] = await resolveCodebases([
      { source: { url: bare, ref: 'main' }, baseDir: tmp.dir },
    ]);
    const paths = await Promise.all(
      Array.from({ length: 6 }, () => materializeCodebase(resolved!, { cacheDir })),
    );
    expect(new Set(paths).size).to.equal(1);
    expect(readdirSync(cacheDir)).to.deep.equal([repo.commits[1]]);
    expect(rawGit(paths[0]!, 'rev-parse', 'refs/evalrig/commit')).to.equal(repo.commits[1]);
  });

  it('copies a path source rather than hardlinking into the user repository, and fetches a detached commit', async () => {
    rawGit(repo.dir, 'checkout', '-q', '-b', 'scratch');
    rawGit(repo.dir, 'commit', '-q', '--allow-empty', '-m', 'scratch only');
    const scratch = rawGit(repo.dir, 'rev-parse', 'HEAD');
    rawGit(repo.dir, 'checkout', '-q', '--detach');
    rawGit(repo.dir, 'branch', '-q', '-D', 'scratch');
    const [resolved] = await resolveCodebases([{ source: { path: repo.dir }, baseDir: '/' }]);
    expect(resolved?.commit).to.equal(scratch);
    const path = await materializeCodebase(resolved!, { cacheDir });
    expect(rawGit(path, 'log', '-1', '--format=%s', 'refs/evalrig/commit')).to.equal(
      'scratch only',
    );
    expect(existsSync(join(path, 'objects', 'info', 'alternates'))).to.equal(false);
  });

  it('reports a commit the source does not have', async () => {
    const [resolved] = await resolveCodebases([
      { source: { url: bare, ref: '0123456789abcdef0123456789abcdef01234567' }, baseDir: tmp.dir },
    ]);
    const error = await materializeCodebase(resolved!, { cacheDir }).then(
      () => undefined,
      (caught: Error) => caught,
    );
    expect(error?.message).to.equal(
      `commit 0123456789abcdef0123456789abcdef01234567 is not in codebase ${bare}`,
    );
    expect(readdirSync(cacheDir)).to.deep.equal([]);
  });
});
