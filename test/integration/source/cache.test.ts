import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import {
  CACHE_LAYOUT,
  CACHE_MANIFEST,
  CodebaseCacheError,
  STALE_TEMP_MS,
  cacheRoot,
  materializeCodebase,
  resolveCodebases,
  sweepStaleTemps,
  verifyCacheEntry,
} from '../../../src/source/index.js';
import { makeSourceRepo, rawGit, tempDir, writeFiles, type SourceRepo } from './fixtures.js';

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

  /** Every object name a repository stores, packed or loose, reachable or not. */
  function allObjects(path: string): string[] {
    return rawGit(path, 'cat-file', '--batch-all-objects', '--batch-check=%(objectname)')
      .split('\n')
      .sort();
  }

  function reachable(path: string, ...commits: string[]): string[] {
    return rawGit(path, 'rev-list', '--objects', ...commits)
      .split('\n')
      .map((line) => line.split(' ')[0]!)
      .sort();
  }

  it('holds one entry per commit under v2/: the commit pinned, its history, no remote, one pack', async () => {
    const [resolved] = await resolveCodebases([
      { source: { url: bare, ref: 'v1.0' }, baseDir: tmp.dir },
    ]);
    const path = await materializeCodebase(resolved!, { cacheDir });
    expect(path).to.equal(join(cacheDir, CACHE_LAYOUT, repo.commits[1] ?? ''));
    expect(rawGit(path, 'rev-parse', '--is-bare-repository')).to.equal('true');
    expect(rawGit(path, 'rev-parse', 'refs/evalrig/commit')).to.equal(repo.commits[1]);
    expect(rawGit(path, 'rev-parse', 'HEAD')).to.equal(repo.commits[1]);
    expect(rawGit(path, 'log', '--format=%s', 'refs/evalrig/commit')).to.equal('second\nfirst');
    expect(rawGit(path, 'remote')).to.equal('');
    expect(rawGit(path, 'count-objects', '-v')).to.match(/^count: 0$/m);
    expect(rawGit(path, 'count-objects', '-v')).to.match(/^packs: 1$/m);
  });

  it('holds exactly the objects the commit reaches: no later commit, no other branch or tag', async () => {
    // A later commit on main, a branch and a tag elsewhere: none may leak into the past.
    writeFiles(repo.dir, { 'future.txt': 'the fix\n' });
    rawGit(repo.dir, 'add', '.');
    rawGit(repo.dir, 'commit', '-q', '-m', 'the future');
    rawGit(repo.dir, 'tag', 'v2.0');
    const [resolved] = await resolveCodebases([
      { source: { url: repo.dir, ref: 'v1.0' }, baseDir: tmp.dir },
    ]);
    const path = await materializeCodebase(resolved!, { cacheDir });
    expect(allObjects(path)).to.deep.equal(reachable(path, repo.commits[1]!));
    expect(rawGit(path, 'for-each-ref', '--format=%(refname)')).to.equal('refs/evalrig/commit');
    const future = rawGit(repo.dir, 'rev-parse', 'HEAD');
    for (const absent of [future, repo.feature, rawGit(repo.dir, 'rev-parse', 'v1.0')]) {
      expect(allObjects(path)).to.not.include(absent);
    }
  });

  it('never reads an entry of the old layout (the whole source under <cache>/<commit>)', async () => {
    const [resolved] = await resolveCodebases([
      { source: { url: bare, ref: 'main' }, baseDir: tmp.dir },
    ]);
    const old = join(cacheDir, resolved!.commit);
    rawGit(tmp.dir, 'clone', '-q', '--bare', bare, old);
    const path = await materializeCodebase(resolved!, { cacheDir });
    expect(path).to.not.equal(old);
    expect(allObjects(path)).to.not.include(repo.feature);
  });

  it('is reused: a second materialization of the commit returns the same entry untouched', async () => {
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

  it('records the sha256 of its pack, index, HEAD and pin, and keeps them read-only', async () => {
    const [resolved] = await resolveCodebases([
      { source: { url: bare, ref: 'main' }, baseDir: tmp.dir },
    ]);
    const path = await materializeCodebase(resolved!, { cacheDir });
    const manifest = JSON.parse(readFileSync(join(path, CACHE_MANIFEST), 'utf8')) as {
      files: Record<string, string>;
    };
    const packs = readdirSync(join(path, 'objects', 'pack')).map((f) => `objects/pack/${f}`);
    expect(Object.keys(manifest.files).sort()).to.deep.equal(
      [...packs, 'HEAD', 'refs/evalrig/commit'].sort(),
    );
    for (const [file, digest] of Object.entries(manifest.files)) {
      const bytes = readFileSync(join(path, file));
      expect(createHash('sha256').update(bytes).digest('hex')).to.equal(digest);
      expect(statSync(join(path, file)).mode & 0o222, file).to.equal(0);
    }
    expect(await verifyCacheEntry(path, resolved!.commit)).to.equal(undefined);
  });

  it('fills again an entry whose pack was rewritten, and says so', async () => {
    const [resolved] = await resolveCodebases([
      { source: { url: bare, ref: 'main' }, baseDir: tmp.dir },
    ]);
    const path = await materializeCodebase(resolved!, { cacheDir });
    const pack = readdirSync(join(path, 'objects', 'pack')).find((f) => f.endsWith('.pack'))!;
    const packPath = join(path, 'objects', 'pack', pack);
    // What a run that shared the inode did: rewrite bytes in place, same size.
    chmodSync(packPath, 0o644);
    const bytes = readFileSync(packPath);
    bytes[20] = bytes[20]! ^ 0xff;
    writeFileSync(packPath, bytes);
    expect(await verifyCacheEntry(path, resolved!.commit)).to.equal(
      `objects/pack/${pack} does not match its recorded sha256`,
    );
    const warnings: string[] = [];
    const again = await materializeCodebase(resolved!, {
      cacheDir,
      onWarning: (text) => warnings.push(text),
    });
    expect(again).to.equal(path);
    expect(warnings).to.deep.equal([
      `codebase cache entry ${path} failed its check (objects/pack/${pack} does not match its recorded sha256); filling it again`,
    ]);
    expect(await verifyCacheEntry(path, resolved!.commit)).to.equal(undefined);
    expect(rawGit(path, 'fsck', '--no-dangling')).to.equal('');
    expect(readdirSync(join(cacheDir, CACHE_LAYOUT))).to.deep.equal([resolved!.commit]);
  });

  it('fills again an entry with a planted pack or no manifest', async () => {
    const [resolved] = await resolveCodebases([
      { source: { url: bare, ref: 'main' }, baseDir: tmp.dir },
    ]);
    const path = await materializeCodebase(resolved!, { cacheDir });
    writeFileSync(join(path, 'objects', 'pack', 'pack-0000.pack'), 'planted');
    expect(await verifyCacheEntry(path, resolved!.commit)).to.match(/^objects\/pack holds /);
    await materializeCodebase(resolved!, { cacheDir });
    expect(readdirSync(join(path, 'objects', 'pack'))).to.not.include('pack-0000.pack');
    rmSync(join(path, CACHE_MANIFEST), { force: true });
    expect(await verifyCacheEntry(path, resolved!.commit)).to.equal(`no ${CACHE_MANIFEST}`);
    await materializeCodebase(resolved!, { cacheDir });
    expect(await verifyCacheEntry(path, resolved!.commit)).to.equal(undefined);
  });

  it('is safe when several fill the same commit at once: one entry, no leftovers', async () => {
    const [resolved] = await resolveCodebases([
      { source: { url: bare, ref: 'main' }, baseDir: tmp.dir },
    ]);
    const paths = await Promise.all(
      Array.from({ length: 6 }, () => materializeCodebase(resolved!, { cacheDir })),
    );
    expect(new Set(paths).size).to.equal(1);
    expect(readdirSync(join(cacheDir, CACHE_LAYOUT))).to.deep.equal([repo.commits[1]]);
    expect(rawGit(paths[0]!, 'rev-parse', 'refs/evalrig/commit')).to.equal(repo.commits[1]);
  });

  it('sweeps the temporary folders of crashed fills: old and of no live process', async () => {
    const root = join(cacheDir, CACHE_LAYOUT);
    const old = (Date.now() - STALE_TEMP_MS - 60_000) / 1000;
    const dead = spawnSync('true').pid!; // reaped: no process has this pid now
    const folders = {
      crashed: `.tmp-${dead}-abc-x1`,
      young: `.tmp-${dead}-abc-x2`,
      live: `.tmp-${process.ppid}-abc-x3`,
    };
    for (const name of Object.values(folders)) {
      mkdirSync(join(root, name, 'scratch.git'), { recursive: true });
      if (name !== folders.young) utimesSync(join(root, name), old, old);
    }
    const [resolved] = await resolveCodebases([
      { source: { url: bare, ref: 'main' }, baseDir: tmp.dir },
    ]);
    await materializeCodebase(resolved!, { cacheDir });
    expect(readdirSync(root).sort()).to.deep.equal(
      [folders.live, folders.young, resolved!.commit].sort(),
    );
    expect(await sweepStaleTemps(root, Date.now() + STALE_TEMP_MS * 2)).to.deep.equal([
      folders.young,
    ]);
  });

  it('fetches a path source rather than hardlinking into the user repository, and a detached commit', async () => {
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
    const pack = readdirSync(join(path, 'objects', 'pack')).find((f) => f.endsWith('.pack'))!;
    expect(statSync(join(path, 'objects', 'pack', pack)).nlink).to.equal(1);
  });

  it("reports a commit the source does not have with git's reason, and leaves nothing", async () => {
    const missing = '0123456789abcdef0123456789abcdef01234567';
    const error = await materializeCodebase(
      { kind: 'git', url: bare, ref: missing, commit: missing, branch: 'main', warnings: [] },
      { cacheDir },
    ).then(
      () => undefined,
      (caught: Error) => caught,
    );
    expect(error).to.be.instanceOf(CodebaseCacheError);
    expect(error?.message).to.match(
      new RegExp(`^commit ${missing} is not in codebase ${bare} \\(git: .*not our ref ${missing}`),
    );
    expect(readdirSync(join(cacheDir, CACHE_LAYOUT))).to.deep.equal([]);
  });
});
