/**
 * Candidates read from real git histories: a repository made here, commit by commit, whose
 * every kind of commit is known; and the two public repositories kept beside the project
 * (../shared/repos), when this machine has them.
 */
import { expect } from 'chai';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { git } from '../../../src/git/index.js';
import { listCandidates } from '../../../src/mine/index.js';

describe('mine: the candidates of a history', () => {
  let dir: string;
  const shas: Record<string, string> = {};
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'evalrig-mine-'));
    await git(['init', '-q', '-b', 'main'], { cwd: dir });
    const commit = async (name: string, files: Record<string, string | null>) => {
      for (const [file, text] of Object.entries(files)) {
        const at = path.join(dir, file);
        await mkdir(path.dirname(at), { recursive: true });
        if (text === null) await git(['rm', '-q', file], { cwd: dir });
        else await writeFile(at, text);
      }
      await git(['add', '-A'], { cwd: dir });
      await git(['commit', '-qm', `${name}\n\nWhy ${name}.`], { cwd: dir });
      shas[name] = await git(['rev-parse', 'HEAD'], { cwd: dir });
    };
    await commit('initial', { 'index.js': 'a', 'test/a.js': 'a' });
    await commit('fix and test', { 'index.js': 'b', 'test/a.js': 'b' });
    await commit('docs only', { 'README.md': 'r' });
    await commit('tests only', { 'test/b.js': 'b' });
    await commit('source only', { 'index.js': 'c' });
    await commit('drop a test', { 'test/b.js': null, 'lib/x.js': 'x' });
    await commit('feature in lib', { 'lib/y.js': 'y', 'test/y.js': 'y', 'example/e.js': 'e' });
    await git(['checkout', '-qb', 'side', shas['feature in lib']!], { cwd: dir });
    await commit('on the side', { 'lib/z.js': 'z', 'test/z.js': 'z' });
    await git(['checkout', '-q', 'main'], { cwd: dir });
    await commit('more on main', { 'index.js': 'd', 'test/a.js': 'd' });
    await git(['merge', '-q', '--no-ff', '-m', 'merge side', 'side'], { cwd: dir });
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('keeps the non-merge commits that change source and tests, newest first, each with its parent, message and files', async () => {
    const { kept } = await listCandidates(dir);
    expect(kept.map((c) => c.subject)).to.deep.equal([
      'more on main',
      'on the side',
      'feature in lib',
      'fix and test',
    ]);
    const fix = kept.find((c) => c.subject === 'fix and test')!;
    expect(fix.commit).to.equal(shas['fix and test']);
    expect(fix.parent).to.equal(shas.initial);
    expect(fix.body).to.equal('Why fix and test.');
    expect(fix.source).to.deep.equal(['index.js']);
    expect(fix.tests).to.deep.equal(['test/a.js']);
    // An example file is neither source nor test.
    expect(kept.find((c) => c.subject === 'feature in lib')!.source).to.deep.equal(['lib/y.js']);
  });

  it('drops every other commit with why; merges are never read', async () => {
    const { dropped } = await listCandidates(dir);
    const why = Object.fromEntries(dropped.map((d) => [d.subject, d.reason]));
    expect(why).to.deep.equal({
      'drop a test': 'it only deletes tests',
      'source only': 'it changes no test file',
      'tests only': 'it changes tests only: no source change to make',
      'docs only': 'it changes no test file',
      initial: 'the first commit: no parent to start from',
    });
  });

  it('reads only the range, narrows source to --paths, stops at --max', async () => {
    const ranged = await listCandidates(dir, {
      range: `${shas['docs only']}..${shas['feature in lib']}`,
    });
    expect(ranged.kept.map((c) => c.subject)).to.deep.equal(['feature in lib']);
    const inLib = await listCandidates(dir, { paths: ['lib/**'] });
    expect(inLib.kept.map((c) => c.subject)).to.deep.equal(['on the side', 'feature in lib']);
    const one = await listCandidates(dir, { max: 1 });
    expect(one.kept.map((c) => c.subject)).to.deep.equal(['more on main']);
    expect(one.dropped.filter((d) => d.reason === 'over --max 1')).to.have.length(3);
  });

  for (const [name, min] of [
    ['minimist', 5],
    ['cachetools', 5],
  ] as const) {
    it(`finds at least ${min} candidates in the real history of ${name}`, async function () {
      const repos =
        process.env.EVALRIG_SHARED_REPOS ??
        path.resolve(import.meta.dirname, '../../../../shared/repos');
      const bare = path.join(repos, `${name}.git`);
      if (!existsSync(bare)) this.skip();
      // The kept clones are read-only and lack empty folders git needs: read a copy.
      const copy = path.join(dir, `${name}.git`);
      await cp(bare, copy, { recursive: true });
      await mkdir(path.join(copy, 'refs', 'heads'), { recursive: true });
      await mkdir(path.join(copy, 'refs', 'tags'), { recursive: true });
      const { kept, dropped } = await listCandidates(copy);
      expect(kept.length).to.be.at.least(min);
      for (const c of kept) {
        expect(c.tests.length).to.be.above(0);
        expect(c.source.length).to.be.above(0);
        // Independently: git says the commit's parent is the one recorded.
        expect(await git(['rev-parse', `${c.commit}^`], { cwd: copy })).to.equal(c.parent);
      }
      const count = Number(
        await git(['rev-list', '--count', '--no-merges', 'HEAD'], { cwd: copy }),
      );
      expect(kept.length + dropped.length).to.equal(count);
    });
  }
});
