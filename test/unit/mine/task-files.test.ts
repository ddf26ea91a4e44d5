import { expect } from 'chai';
import { execa } from 'execa';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FileRoles, listCandidates } from '../../../src/mine/index.js';
import { writeTaskFiles } from '../../../src/mine/task-files.js';

describe("mine: a task's files, kept host-side", function () {
  this.timeout(30_000);
  let dir: string;
  const BINARY = Buffer.from([0, 255, 10, 13, 10, 0, 128]);

  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'evalrig-task-files-'));
    const repo = path.join(dir, 'repo');
    const git = (...args: string[]) => execa('git', ['-C', repo, ...args]);
    await execa('git', ['init', '-q', '-b', 'main', repo]);
    await git('config', 'user.email', 't@example.org');
    await git('config', 'user.name', 't');
    await mkdir(path.join(repo, 'test'), { recursive: true });
    await writeFile(path.join(repo, 'index.js'), 'module.exports = 1;\n');
    await writeFile(path.join(repo, 'test/old.js'), 'old\n');
    await git('add', '-A');
    await git('commit', '-qm', 'first');
    await writeFile(path.join(repo, 'index.js'), 'module.exports = 2;\n');
    await writeFile(path.join(repo, 'README.md'), 'docs\n');
    await writeFile(path.join(repo, 'test/new.js'), 'new\n');
    await writeFile(path.join(repo, 'test/fixture.bin'), BINARY);
    await git('add', '-A');
    await git('commit', '-qm', 'second');
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it("writes the commit's tests byte for byte and a reference diff of everything else", async () => {
    const gitDir = path.join(dir, 'repo', '.git');
    const roles = new FileRoles();
    const [c] = (await listCandidates(gitDir)).kept;
    const setDir = path.join(dir, 'set');
    const t = await writeTaskFiles(gitDir, setDir, c!, roles);
    expect(t.failToPass).to.deep.equal(['test/fixture.bin', 'test/new.js']);
    expect(t.passToPass).to.deep.equal(['test/old.js']);
    expect(await readFile(path.join(setDir, t.tests, 'test/fixture.bin'))).to.deep.equal(BINARY);
    expect(await readFile(path.join(setDir, t.tests, 'test/new.js'), 'utf8')).to.equal('new\n');
    const patch = await readFile(path.join(setDir, t.patch), 'utf8');
    expect(patch).to.include('diff --git a/index.js b/index.js');
    expect(patch).to.include('diff --git a/README.md b/README.md');
    expect(patch).to.not.include('test/');
    // The patch applies to the parent and gives the commit's files, as git itself would.
    const check = path.join(dir, 'check');
    await execa('git', ['clone', '-q', path.join(dir, 'repo'), check]);
    await execa('git', ['-C', check, 'checkout', '-q', c!.parent]);
    await execa('git', ['-C', check, 'apply', path.join(setDir, t.patch)]);
    expect(await readFile(path.join(check, 'index.js'), 'utf8')).to.equal('module.exports = 2;\n');
  });
});
