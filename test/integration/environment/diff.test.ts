import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  EnvironmentError,
  measureDiff,
  prepareEnvironment,
  type Environment,
} from '../../../src/environment/index.js';
import { materializeCodebase, resolveCodebases } from '../../../src/source/index.js';
import { makeSourceRepo, rawGit, tempDir, writeFiles } from '../source/fixtures.js';

const NOTHING = {
  files_added: 0,
  files_modified: 0,
  files_deleted: 0,
  lines_added: 0,
  lines_removed: 0,
  untracked: 0,
  patch: '',
  patch_truncated: false,
  patch_bytes: 0,
};

describe('environment: measuring the diff against refs/evalrig/baseline', () => {
  let tmp: ReturnType<typeof tempDir>;
  let env: Environment;

  beforeEach(async () => {
    tmp = tempDir('diff');
    const repo = makeSourceRepo(join(tmp.dir, 'toy'));
    const [resolved] = await resolveCodebases([
      { source: { url: repo.dir, ref: 'main' }, baseDir: '/' },
    ]);
    const cachePath = await materializeCodebase(resolved!, { cacheDir: join(tmp.dir, 'cache') });
    env = await prepareEnvironment({
      root: join(tmp.dir, 'env'),
      codebase: { resolved: resolved!, cachePath },
      remote: { owner: 'acme', name: 'toy' },
    });
  });

  afterEach(() => tmp.cleanup());

  it('is empty right after preparation', async () => {
    expect(await measureDiff(env.workTree)).to.deep.equal(NOTHING);
  });

  it('counts edits, deletions and new files, committed or not; untracked counted, ignored excluded', async () => {
    const work = env.workTree;
    writeFileSync(join(work, 'src', 'lib.txt'), 'one\nTWO\nthree\nfour\nfive\n'); // +2 -1
    rmSync(join(work, 'README.md')); // -1
    writeFiles(work, { 'new/a.txt': 'a\nb\n', 'new/b.txt': 'c\n' }); // untracked, +3
    writeFiles(work, {
      'target/out.bin': 'built',
      'build.log': 'noise\n',
      'node_modules/x/i.js': 'x\n',
    });
    writeFiles(work, { 'committed.txt': 'c1\nc2\n' }); // +2, committed by the agent
    rawGit(work, 'add', 'committed.txt');
    rawGit(work, 'commit', '-q', '-m', 'agent commit');

    const diff = await measureDiff(work);
    expect(diff).to.deep.include({
      files_added: 3,
      files_modified: 1,
      files_deleted: 1,
      lines_added: 7,
      lines_removed: 2,
      untracked: 2,
      patch_truncated: false,
    });
    expect(diff.patch).to.contain('diff --git a/new/a.txt b/new/a.txt');
    expect(diff.patch).to.contain('-two\n+TWO\n');
    expect(diff.patch).to.contain('deleted file mode');
    expect(diff.patch).to.not.match(/target|build\.log|node_modules/);
    expect(diff.patch_bytes).to.equal(Buffer.byteLength(diff.patch));
  });

  it('caps the patch at a line end and says so in the text', async () => {
    writeFiles(env.workTree, {
      'big.txt': Array.from({ length: 500 }, (_, i) => `line ${i}\n`).join(''),
    });
    const diff = await measureDiff(env.workTree, { maxPatchBytes: 300 });
    expect(diff.patch_truncated).to.equal(true);
    expect(diff.patch_bytes).to.be.greaterThan(3000);
    expect(diff.patch).to.match(/\n\[evalrig: patch truncated: \d+ of \d+ bytes shown\]\n$/);
    const shown = diff.patch.slice(0, diff.patch.indexOf('[evalrig:'));
    expect(Buffer.byteLength(shown)).to.be.at.most(300);
    expect(shown.endsWith('\n')).to.equal(true);
    expect(diff.lines_added).to.equal(500);
  });

  it('writes nothing into the repository and runs nothing the repository configures', async () => {
    const work = env.workTree;
    const marker = join(tmp.dir, 'filter-ran');
    rawGit(work, 'config', 'filter.evil.clean', `touch ${marker}; cat`);
    rawGit(work, 'config', 'diff.external', `touch ${marker}; true`);
    writeFiles(work, { '.gitattributes': '* filter=evil\n', 'x.txt': 'x\n' });
    const index = join(work, '.git', 'index');
    const before = { index: readFileSync(index), objects: rawGit(work, 'count-objects', '-v') };
    const diff = await measureDiff(work);
    expect(diff).to.include({ files_added: 2, untracked: 2 });
    expect(existsSync(marker)).to.equal(false);
    expect(readFileSync(index).equals(before.index)).to.equal(true);
    expect(rawGit(work, 'count-objects', '-v')).to.equal(before.objects);
  });

  it('works as root on a work tree owned by uid 1000, leaving nothing owned by root in it', async function () {
    if (process.getuid?.() !== 0) this.skip();
    writeFiles(env.workTree, { 'src/lib.txt': 'changed\n', 'added.txt': 'new\n' });
    execFileSync('chown', ['-R', '1000:1000', join(tmp.dir, 'env')]);
    const diff = await measureDiff(env.workTree);
    expect(diff).to.include({
      files_added: 1,
      files_modified: 1,
      lines_added: 2,
      lines_removed: 4,
    });
    const rootOwned = execFileSync('find', [env.workTree, '-uid', '0'], { encoding: 'utf8' });
    expect(rootOwned).to.equal('');
    expect(statSync(join(env.workTree, '.git', 'index')).uid).to.equal(1000);
  });

  it('refuses a work tree with no baseline', async () => {
    const plain = join(tmp.dir, 'plain');
    rawGit(tmp.dir, 'init', '-q', plain);
    const error = await measureDiff(plain).then(
      () => undefined,
      (caught: Error) => caught,
    );
    expect(error).to.be.instanceOf(EnvironmentError);
    expect(error?.message).to.equal(
      `${plain} has no refs/evalrig/baseline: it is not an environment evalrig prepared`,
    );
  });
});
