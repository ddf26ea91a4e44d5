import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  BASELINE_REF,
  WorkspaceError,
  measureDiff,
  prepareWorkspace,
  sealWorkspace,
  type Workspace,
  type Seal,
} from '../../../src/workspace/index.js';
import { materializeCodebase, resolveCodebases } from '../../../src/source/index.js';
import { NO_DIFF } from '../../support/records.js';
import { makeSourceRepo, rawGit, tempDir, writeFiles } from '../source/fixtures.js';

const NOTHING = {
  ...NO_DIFF,
  patch: '',
  patch_truncated: false,
  patch_bytes: 0,
};

describe('workspace: measuring the diff against refs/evalrig/baseline', () => {
  let tmp: ReturnType<typeof tempDir>;
  let env: Workspace;
  let seal: Seal;

  beforeEach(async () => {
    tmp = tempDir('diff');
    const repo = makeSourceRepo(join(tmp.dir, 'toy'));
    const [resolved] = await resolveCodebases([
      { source: { url: repo.dir, ref: 'main' }, baseDir: '/' },
    ]);
    const cachePath = await materializeCodebase(resolved!, { cacheDir: join(tmp.dir, 'cache') });
    env = await prepareWorkspace({
      root: join(tmp.dir, 'env'),
      codebase: { resolved: resolved!, cachePath },
      remote: { owner: 'acme', name: 'toy' },
    });
    seal = await sealWorkspace(env, join(tmp.dir, 'host'), [join(cachePath, 'objects')]);
  });

  afterEach(() => tmp.cleanup());

  it('is empty right after preparation', async () => {
    expect(await measureDiff(seal)).to.deep.equal(NOTHING);
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

    const diff = await measureDiff(seal);
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
    const diff = await measureDiff(seal, { maxPatchBytes: 300 });
    expect(diff.patch_truncated).to.equal(true);
    expect(diff.patch_bytes).to.be.greaterThan(3000);
    expect(diff.patch).to.match(/\n\[evalrig: patch truncated: \d+ of \d+ bytes shown\]\n$/);
    const shown = diff.patch.slice(0, diff.patch.indexOf('[evalrig:'));
    expect(Buffer.byteLength(shown)).to.be.at.most(300);
    expect(shown.endsWith('\n')).to.equal(true);
    expect(diff.lines_added).to.equal(500);
  });

  it('gives the counts alone when no patch is asked for', async () => {
    writeFileSync(join(env.workTree, 'src', 'lib.txt'), 'one\nTWO\nthree\nfour\n');
    writeFiles(env.workTree, { 'new.txt': 'n\n' });
    expect(await measureDiff(seal, { patch: false })).to.deep.equal({
      files_added: 1,
      files_modified: 1,
      files_deleted: 0,
      lines_added: 2,
      lines_removed: 1,
      untracked: 1,
    });
  });

  it("keeps git's own patch bytes, cut at a line end within the limit, whatever the text's encoding", async () => {
    const work = env.workTree;
    const latin1 = Buffer.from('caf\xe9 cr\xe8me br\xfbl\xe9e\n', 'latin1');
    writeFileSync(join(work, 'latin1.txt'), Buffer.concat(Array<Buffer>(40).fill(latin1)));
    writeFiles(work, {
      'é dir/ünï code.txt': 'héllo wörld ✓ 日本\n'.repeat(40),
      'quote"d\tname.txt': 'q\n',
    });
    writeFileSync(join(work, 'bin.dat'), Buffer.from([0, 1, 2, 255, 0]));
    const measures = [];
    for (const limit of [0, 1, 100, 250, 401, 777, 1000, 1500, 2048, 3000, 100_000]) {
      measures.push({ limit, diff: await measureDiff(seal, { maxPatchBytes: limit }) });
    }
    // The patch as git shows it, from a real add of everything (done last: it writes the index).
    rawGit(work, 'add', '-A');
    const full = execFileSync('git', ['diff', '--cached', '--no-renames', BASELINE_REF], {
      cwd: work,
      env: {
        PATH: process.env.PATH ?? '',
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_CONFIG_GLOBAL: '/dev/null',
      },
    });
    for (const { limit, diff } of measures) {
      expect(diff.patch_bytes, `limit ${limit}`).to.equal(full.length);
      expect(diff.patch_truncated, `limit ${limit}`).to.equal(full.length > limit);
      if (full.length <= limit) {
        expect(diff.patch, `limit ${limit}`).to.equal(full.toString('utf8'));
        continue;
      }
      const kept = full.subarray(0, limit).toString('utf8');
      const shown = kept.slice(0, kept.lastIndexOf('\n') + 1);
      expect(diff.patch, `limit ${limit}`).to.equal(
        `${shown}[evalrig: patch truncated: ${Buffer.byteLength(shown)} of ${full.length} bytes shown]\n`,
      );
    }
    expect(measures[0]!.diff).to.deep.include({ files_added: 4, lines_added: 81, untracked: 4 });
  });

  it('counts every file when more files changed than the counts have room for beside the patch', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 8000; i += 1) {
      files[`generated/part-${i % 40}/a-file-with-a-rather-long-name-to-fill-the-counts-${i}.txt`] =
        `line ${i}\n`;
    }
    writeFiles(env.workTree, files);
    writeFileSync(join(env.workTree, 'src', 'lib.txt'), 'one\n');
    const diff = await measureDiff(seal, { maxPatchBytes: 5000 });
    expect(diff).to.deep.include({
      files_added: 8000,
      files_modified: 1,
      lines_added: 8000,
      lines_removed: 3,
      untracked: 8000,
      patch_truncated: true,
    });
    expect(diff.patch).to.match(/^diff --git a\/generated\/part-0\//);
    expect(diff.patch_bytes).to.be.greaterThan(8000 * 150);
  });

  it('writes nothing into the repository and runs nothing the repository configures', async () => {
    const work = env.workTree;
    const marker = join(tmp.dir, 'filter-ran');
    rawGit(work, 'config', 'filter.evil.clean', `touch ${marker}; cat`);
    rawGit(work, 'config', 'diff.external', `touch ${marker}; true`);
    writeFiles(work, { '.gitattributes': '* filter=evil\n', 'x.txt': 'x\n' });
    const index = join(work, '.git', 'index');
    const before = { index: readFileSync(index), objects: rawGit(work, 'count-objects', '-v') };
    const diff = await measureDiff(seal);
    expect(diff).to.include({ files_added: 2, untracked: 2 });
    expect(existsSync(marker)).to.equal(false);
    expect(readFileSync(index).equals(before.index)).to.equal(true);
    expect(rawGit(work, 'count-objects', '-v')).to.equal(before.objects);
  });

  it('works as root on a work tree owned by uid 1000, leaving nothing owned by root in it', async function () {
    if (process.getuid?.() !== 0) this.skip();
    writeFiles(env.workTree, { 'src/lib.txt': 'changed\n', 'added.txt': 'new\n' });
    execFileSync('chown', ['-R', '1000:1000', join(tmp.dir, 'env')]);
    const diff = await measureDiff(seal);
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

  it('measures against the baseline the host recorded, whatever the agent did to its repository', async () => {
    writeFiles(env.workTree, { 'src/lib.txt': 'changed\n' });
    rawGit(env.workTree, 'add', '-A');
    rawGit(env.workTree, 'commit', '-q', '-m', 'agent');
    // The agent moves the baseline mark to its own commit: a committed change would look like none.
    rawGit(env.workTree, 'update-ref', BASELINE_REF, 'HEAD');
    expect(await measureDiff(seal)).to.include({ files_modified: 1, lines_added: 1 });
    // Its index, objects and refs gone: the host's seal still holds the baseline.
    rmSync(join(env.workTree, '.git'), { recursive: true, force: true });
    expect(await measureDiff(seal)).to.include({ files_modified: 1, lines_added: 1 });
  });

  it('refuses a work tree that is no longer a folder', async () => {
    rmSync(env.workTree, { recursive: true, force: true });
    writeFileSync(env.workTree, 'not a folder');
    const error = await measureDiff(seal).then(
      () => undefined,
      (caught: Error) => caught,
    );
    expect(error).to.be.instanceOf(WorkspaceError);
    expect(error?.message).to.equal(`${env.workTree} is not a folder any more`);
  });
});
