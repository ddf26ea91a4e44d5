import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { EvalSetError, loadEvalSet } from '../../../src/config/index.js';

/**
 * Paths the eval set copies into environments (a condition's stage sources,
 * an eval's files and files_root) are resolved for real and must stay inside
 * the eval set's folder: environments copy them following links, so a path
 * or a link out of the folder would copy host files into a container.
 */
describe('eval-set paths stay inside the eval set folder, resolved for real', () => {
  let root: string; // holds the eval set folder and, beside it, "host" files
  let dir: string; // the eval set folder

  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'evalrig-hostpaths-'));
    dir = path.join(root, 'set');
    await mkdir(path.join(dir, 'skills/tdd'), { recursive: true });
    await writeFile(path.join(dir, 'skills/tdd/SKILL.md'), 'skill\n');
    await writeFile(path.join(dir, 'present.md'), 'here\n');
    await writeFile(path.join(root, 'secret.txt'), 'host secret\n');
    await mkdir(path.join(root, 'host-folder'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  const stage = (from: string) => ({ ...base(), conditions: { c: { stage: { [from]: 'x' } } } });
  const files = (list: string[], filesRoot?: string) => ({
    ...base(),
    evals: [
      { id: 'one', prompt: 'p', files: list, ...(filesRoot ? { files_root: filesRoot } : {}) },
    ],
  });

  it('refuses a stage source given as an absolute path', async () => {
    await expectProblem(stage('/etc/passwd'), '/conditions/c/stage/~1etc~1passwd', 'is absolute');
  });

  it('refuses a stage source that climbs out with ..', async () => {
    await expectProblem(
      stage('../secret.txt'),
      '/conditions/c/stage/..~1secret.txt',
      "climbs out of the eval set's folder",
    );
  });

  it('refuses files_root "/" and an absolute files_root', async () => {
    await expectProblem(files(['etc/passwd'], '/'), '/evals/0/files_root', 'is absolute');
    await expectProblem(files(['passwd'], '/etc'), '/evals/0/files_root', 'is absolute');
  });

  it('refuses a files_root that climbs out with ..', async () => {
    await expectProblem(files(['secret.txt'], '..'), '/evals/0/files_root', 'climbs out');
  });

  it('refuses a stage source that is a symbolic link out of the folder', async () => {
    await symlink(path.join(root, 'secret.txt'), path.join(dir, 'innocent.md'));
    await expectProblem(
      stage('innocent.md'),
      '/conditions/c/stage/innocent.md',
      `a symbolic link that leads out of the eval set's folder (to ${path.join(root, 'secret.txt')})`,
    );
  });

  it('refuses a staged folder holding a link out, naming the link', async () => {
    await symlink('/etc/passwd', path.join(dir, 'skills/tdd/notes.md'));
    await expectProblem(
      stage('skills'),
      '/conditions/c/stage/skills',
      '"tdd/notes.md", a symbolic link that leads out',
    );
  });

  it('refuses a staged folder reached through a link that leads out', async () => {
    await writeFile(path.join(root, 'host-folder/id_rsa'), 'key\n');
    await symlink(path.join(root, 'host-folder'), path.join(dir, 'skills/more'));
    await expectProblem(stage('skills'), '/conditions/c/stage/skills', '"more", a symbolic link');
  });

  it('refuses a files entry that is a link out, and a files_root that is one', async () => {
    await symlink(path.join(root, 'secret.txt'), path.join(dir, 'task.md'));
    await expectProblem(files(['task.md']), '/evals/0/files/0', 'leads out');
    await symlink(path.join(root, 'host-folder'), path.join(dir, 'files'));
    await expectProblem(files(['a'], 'files'), '/evals/0/files_root', 'leads out');
  });

  it('refuses a link loop and a named pipe inside a staged folder (a copy would hang)', async () => {
    await symlink('loop-b', path.join(dir, 'loop-a'));
    await symlink('loop-a', path.join(dir, 'loop-b'));
    await expectProblem(stage('loop-a'), '/conditions/c/stage/loop-a', 'symbolic link loop');
    execFileSync('mkfifo', [path.join(dir, 'skills/tdd/pipe')]);
    await expectProblem(
      stage('skills'),
      '/conditions/c/stage/skills',
      '"tdd/pipe", not a regular file or folder',
    );
  });

  it('accepts links that stay inside the folder, and a folder reached through one', async () => {
    await symlink('skills/tdd/SKILL.md', path.join(dir, 'alias.md'));
    await symlink('../../present.md', path.join(dir, 'skills/tdd/present.md'));
    await symlink('skills', path.join(dir, 'linked-skills'));
    const set = await loadEvalSet(
      await writeSet({
        ...base(),
        conditions: { c: { stage: { 'alias.md': 'a.md', 'linked-skills': 's' } } },
        evals: [{ id: 'one', prompt: 'p', files: ['tdd/SKILL.md'], files_root: 'linked-skills' }],
      }),
    );
    expect(set.conditions[0]!.stage.map((s) => s.to)).to.deep.equal(['a.md', 's']);
  });

  it('lets a codebase path name a repository anywhere on the host', async () => {
    // The codebase is the code under test, which the operator chooses; only
    // what the eval set itself copies is held to its folder.
    const set = await loadEvalSet(
      await writeSet({ ...base(), codebase: { path: path.join(root, 'host-folder') } }),
    );
    expect(set.evals[0]!.codebase!.source).to.deep.equal({ path: path.join(root, 'host-folder') });
  });

  it('reports every escaping path at once, each at its pointer', async () => {
    const error = await refusal({
      ...base(),
      conditions: { c: { stage: { '/etc/passwd': 'a', '../secret.txt': 'b', 'present.md': 'c' } } },
      evals: [{ id: 'one', prompt: 'p', files_root: '/', files: ['etc/shadow'] }],
    });
    expect(error.problems.map((p) => p.pointer)).to.deep.equal([
      '/evals/0/files_root',
      '/conditions/c/stage/~1etc~1passwd',
      '/conditions/c/stage/..~1secret.txt',
    ]);
  });

  // --- helpers

  function base(): Record<string, unknown> {
    return { name: 'paths', agent: { command: ['agent'] }, evals: [{ id: 'one', prompt: 'p' }] };
  }

  async function writeSet(doc: unknown): Promise<string> {
    const file = path.join(dir, 'evals.json');
    await writeFile(file, JSON.stringify(doc));
    return file;
  }

  async function refusal(doc: unknown): Promise<EvalSetError> {
    try {
      await loadEvalSet(await writeSet(doc));
    } catch (error) {
      expect(error).to.be.instanceOf(EvalSetError);
      return error as EvalSetError;
    }
    return expect.fail('the eval set was accepted');
  }

  async function expectProblem(doc: unknown, pointer: string, words: string): Promise<void> {
    const error = await refusal(doc);
    const found = error.problems.some((p) => p.pointer === pointer && p.message.includes(words));
    expect(found, `no problem at "${pointer}" saying "${words}" in:\n${error.message}`).to.equal(
      true,
    );
  }
});
