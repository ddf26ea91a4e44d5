import { expect } from 'chai';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CACHE_LAYOUT,
  CodebaseSourceError,
  provenanceOf,
  resolveCodebases,
  type ResolvedCodebase,
} from '../../../src/source/index.js';
import { InputError } from '../../../src/errors/index.js';
import { makeSourceRepo, rawGit, tempDir, writeFiles, type SourceRepo } from './fixtures.js';

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a failure');
}

describe('source: resolving codebase sources to commits', () => {
  let tmp: ReturnType<typeof tempDir>;
  let repo: SourceRepo;
  let bare: string;
  let cacheDir: string;

  beforeEach(() => {
    tmp = tempDir('resolve');
    repo = makeSourceRepo(join(tmp.dir, 'toy'));
    bare = join(tmp.dir, 'toy.git');
    rawGit(tmp.dir, 'clone', '-q', '--bare', repo.dir, bare);
    cacheDir = join(tmp.dir, 'cache');
  });

  afterEach(() => tmp.cleanup());

  describe('git sources (url + ref)', () => {
    it('resolves a branch to its tip and starts on that branch', async () => {
      const [resolved] = await resolveCodebases([
        { source: { url: bare, ref: 'feature' }, baseDir: tmp.dir },
      ]);
      expect(resolved).to.deep.equal({
        kind: 'git',
        url: bare,
        ref: 'feature',
        commit: repo.feature,
        branch: 'feature',
        warnings: [],
      });
    });

    it('resolves an annotated tag to the commit it names, on the default branch', async () => {
      const [resolved] = await resolveCodebases([
        { source: { url: bare, ref: 'v1.0' }, baseDir: tmp.dir },
      ]);
      expect(resolved).to.include({ commit: repo.commits[1], branch: 'main', ref: 'v1.0' });
    });

    it('takes a full 40-hex commit as is, on the default branch', async () => {
      const commit = repo.commits[0] ?? '';
      const [resolved] = await resolveCodebases([
        { source: { url: `file://${bare}`, ref: commit.toUpperCase() }, baseDir: tmp.dir },
      ]);
      expect(resolved).to.include({ commit, branch: 'main', url: `file://${bare}` });
    });

    it('reads a relative local URL from the declaring folder', async () => {
      const [resolved] = await resolveCodebases([
        { source: { url: './toy.git', ref: 'main' }, baseDir: tmp.dir },
      ]);
      expect(resolved).to.include({ url: bare, commit: repo.commits[1] });
    });

    it('refuses a short hash, an unknown ref and a bad URL with a typed error naming the source', async () => {
      const short = await failure(
        resolveCodebases([
          { source: { url: bare, ref: (repo.commits[0] ?? '').slice(0, 7) }, baseDir: tmp.dir },
        ]),
      );
      expect(short).to.be.instanceOf(CodebaseSourceError).and.instanceOf(InputError);
      expect(short.message).to.match(/looks like a short commit hash/);

      const unknown = await failure(
        resolveCodebases([{ source: { url: bare, ref: 'nope' }, baseDir: tmp.dir }]),
      );
      expect(unknown).to.be.instanceOf(CodebaseSourceError);
      // What the repository has instead is named: the fix is in the message.
      expect(unknown.message).to.equal(
        `codebase ${bare}@nope: no branch or tag "nope" in ${bare} (branches: feature, main; tags: v1.0)`,
      );

      const missing = join(tmp.dir, 'missing.git');
      const bad = await failure(
        resolveCodebases([{ source: { url: missing, ref: 'main' }, baseDir: tmp.dir }]),
      );
      expect(bad).to.be.instanceOf(CodebaseSourceError);
      // git's reason, not only the tail of its hint.
      expect(bad.message).to.equal(
        `codebase ${missing}@main: cannot read the repository: '${missing}' does not appear to be a git repository; Could not read from remote repository.`,
      );
    });

    it('checks that a full hash no ref names is in the source, fetching it into the cache', async () => {
      // The first commit is no ref's tip: only a fetch can tell that the source has it.
      const [resolved] = await resolveCodebases(
        [{ source: { url: bare, ref: repo.commits[0]! }, baseDir: tmp.dir }],
        { cacheDir },
      );
      expect(resolved).to.include({ commit: repo.commits[0], kind: 'git' });
      expect(resolved).to.not.have.property('unadvertised');
      expect(readdirSync(join(cacheDir, CACHE_LAYOUT))).to.deep.equal([repo.commits[0]]);
    });

    it("refuses a full hash the source does not have, with git's reason, leaving nothing", async () => {
      const unknown = '0123456789abcdef0123456789abcdef01234567';
      const error = await failure(
        resolveCodebases([{ source: { url: bare, ref: unknown }, baseDir: tmp.dir }], {
          cacheDir,
        }),
      );
      expect(error).to.be.instanceOf(CodebaseSourceError).and.instanceOf(InputError);
      expect(error.message).to.match(
        new RegExp(
          `^codebase ${bare}@${unknown}: commit ${unknown} is not in codebase ${bare} \\(git: .*not our ref ${unknown}`,
        ),
      );
      expect(readdirSync(join(cacheDir, CACHE_LAYOUT))).to.deep.equal([]);
    });

    it('fails on an unknown ref before anything is built, even when other sources are fine', async () => {
      const plain = join(tmp.dir, 'plain');
      writeFiles(plain, { 'a.txt': 'a\n' });
      const error = await failure(
        resolveCodebases(
          [
            { source: { path: plain }, baseDir: tmp.dir },
            { source: { url: bare, ref: 'no-such-branch' }, baseDir: tmp.dir },
          ],
          { cacheDir },
        ),
      );
      expect(error).to.be.instanceOf(CodebaseSourceError);
      expect(existsSync(cacheDir)).to.equal(false);
    });

    it('runs one ls-remote per distinct URL', async () => {
      const trace = join(tmp.dir, 'trace');
      process.env.GIT_TRACE = trace;
      try {
        const resolved = await resolveCodebases([
          { source: { url: bare, ref: 'main' }, baseDir: tmp.dir },
          { source: { url: bare, ref: 'feature' }, baseDir: tmp.dir },
          { source: { url: './toy.git', ref: 'v1.0' }, baseDir: tmp.dir },
          { source: { url: repo.dir, ref: 'main' }, baseDir: tmp.dir },
        ]);
        expect(resolved.map((item) => item.commit)).to.deep.equal([
          repo.commits[1],
          repo.feature,
          repo.commits[1],
          repo.commits[1],
        ]);
      } finally {
        delete process.env.GIT_TRACE;
      }
      const calls = readFileSync(trace, 'utf8')
        .split('\n')
        .filter((line) => /built-in: git ls-remote/.test(line));
      expect(calls).to.have.length(2);
    });
  });

  describe('path sources', () => {
    it('resolves a repository to its committed HEAD, host-local, with its origin (no credentials)', async () => {
      rawGit(repo.dir, 'remote', 'add', 'origin', 'https://user:secret@example.org/acme/toy.git');
      const [resolved] = await resolveCodebases([{ source: { path: './toy' }, baseDir: tmp.dir }]);
      expect(resolved).to.deep.equal({
        kind: 'path',
        path: repo.dir,
        commit: rawGit(repo.dir, 'rev-parse', 'HEAD'),
        branch: 'main',
        host_local: true,
        origin: 'https://example.org/acme/toy.git',
        warnings: [
          `codebase ${repo.dir} is host-local: nobody else can resolve it; recorded with commit ${repo.commits[1]} (origin https://example.org/acme/toy.git)`,
        ],
      } satisfies ResolvedCodebase);
      expect(provenanceOf(resolved as ResolvedCodebase)).to.not.have.property('warnings');
      expect(provenanceOf(resolved as ResolvedCodebase)).to.not.have.property('dirty');
    });

    it('warns that uncommitted work is not carried from a dirty repository, and does not touch its index', async () => {
      writeFileSync(join(repo.dir, 'README.md'), '# changed\n');
      const indexBefore = readFileSync(join(repo.dir, '.git', 'index'));
      const [resolved] = await resolveCodebases([{ source: { path: repo.dir }, baseDir: '/' }]);
      expect(resolved).to.include({ dirty: true, commit: repo.commits[1] });
      expect(resolved?.warnings[1]).to.equal(
        `codebase ${repo.dir} has uncommitted work, which is not carried: environments start from commit ${repo.commits[1]}`,
      );
      expect(readFileSync(join(repo.dir, '.git', 'index')).equals(indexBefore)).to.equal(true);
    });

    it('takes the current branch of the repository, and main when HEAD is detached', async () => {
      rawGit(repo.dir, 'checkout', '-q', 'feature');
      const [onFeature] = await resolveCodebases([{ source: { path: repo.dir }, baseDir: '/' }]);
      expect(onFeature).to.include({ branch: 'feature', commit: repo.feature });
      rawGit(repo.dir, 'checkout', '-q', '--detach', repo.commits[0] ?? '');
      const [detached] = await resolveCodebases([{ source: { path: repo.dir }, baseDir: '/' }]);
      expect(detached).to.include({ branch: 'main', commit: repo.commits[0] });
    });

    it('refuses a path that does not exist', async () => {
      const error = await failure(
        resolveCodebases([{ source: { path: 'nowhere' }, baseDir: tmp.dir }]),
      );
      expect(error).to.be.instanceOf(CodebaseSourceError);
      expect(error.message).to.equal(
        `codebase nowhere: path does not exist (looked at ${join(tmp.dir, 'nowhere')})`,
      );
    });

    it('takes a plain folder as a snapshot of its files (its .gitignore respected), one commit per content', async () => {
      const plain = join(tmp.dir, 'plain');
      writeFiles(plain, { '.gitignore': 'build/\n', 'a.txt': 'a\n', 'build/out.bin': 'x' });
      const [first] = await resolveCodebases([{ source: { path: plain }, baseDir: '/' }], {
        cacheDir,
      });
      expect(first).to.include({ kind: 'snapshot', path: plain, branch: 'main', host_local: true });
      expect(first?.warnings[0]).to.match(
        /host-local and not a git repository: taken as a snapshot/,
      );
      const entry = join(cacheDir, CACHE_LAYOUT, first?.commit ?? '');
      expect(rawGit(entry, 'ls-tree', '-r', '--name-only', 'refs/evalrig/commit')).to.equal(
        '.gitignore\na.txt',
      );
      expect(readdirSync(plain)).to.deep.equal(['.gitignore', 'a.txt', 'build']);

      const [again] = await resolveCodebases([{ source: { path: plain }, baseDir: '/' }], {
        cacheDir,
      });
      expect(again?.commit).to.equal(first?.commit);
      writeFileSync(join(plain, 'a.txt'), 'changed\n');
      const [changed] = await resolveCodebases([{ source: { path: plain }, baseDir: '/' }], {
        cacheDir,
      });
      expect(changed?.commit).to.not.equal(first?.commit);
    });

    it('takes a folder inside another repository as a snapshot, not the enclosing repository', async () => {
      const inner = join(repo.dir, 'src');
      mkdirSync(inner, { recursive: true });
      const [resolved] = await resolveCodebases([{ source: { path: inner }, baseDir: '/' }], {
        cacheDir,
      });
      expect(resolved?.kind).to.equal('snapshot');
      expect(
        rawGit(
          join(cacheDir, CACHE_LAYOUT, resolved?.commit ?? ''),
          'ls-tree',
          '-r',
          '--name-only',
          'refs/evalrig/commit',
        ),
      ).to.equal('lib.txt');
    });
  });
});
