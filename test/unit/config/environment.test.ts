import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { EvalSetError, loadEvalSet } from '../../../src/config/index.js';

/**
 * An eval set (and an eval, overriding it whole) may name an environment: a
 * Dockerfile in the eval set's folder, its build context (default: the
 * Dockerfile's folder) and setup commands. The builder is sent the context
 * whole, so both stay inside the folder, resolved for real.
 */
describe('config: environment (dockerfile, context, setup)', () => {
  let root: string;
  let dir: string;

  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'evalrig-envconfig-'));
    dir = path.join(root, 'set');
    await mkdir(path.join(dir, 'env/files'), { recursive: true });
    await writeFile(path.join(dir, 'env/Dockerfile'), 'ARG BASE_IMAGE\nFROM ${BASE_IMAGE}\n');
    await writeFile(path.join(dir, 'other.Dockerfile'), 'ARG BASE_IMAGE\nFROM ${BASE_IMAGE}\n');
    await writeFile(path.join(root, 'secret.txt'), 'host secret\n');
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  const base = (extra: Record<string, unknown> = {}, evalExtra: Record<string, unknown> = {}) => ({
    name: 'env',
    agent: { command: ['agent'] },
    ...extra,
    evals: [
      { id: 'one', prompt: 'p', ...evalExtra },
      { id: 'two', prompt: 'p' },
    ],
  });

  async function load(doc: unknown) {
    const file = path.join(dir, 'evals.json');
    await writeFile(file, JSON.stringify(doc));
    return loadEvalSet(file);
  }

  async function expectProblem(doc: unknown, pointer: string, words: string): Promise<void> {
    try {
      await load(doc);
    } catch (error) {
      expect(error).to.be.instanceOf(EvalSetError);
      const problems = (error as EvalSetError).problems;
      const found = problems.some((p) => p.pointer === pointer && p.message.includes(words));
      expect(found, `no problem at "${pointer}" saying "${words}" in:\n${String(error)}`).to.equal(
        true,
      );
      return;
    }
    expect.fail('the eval set was accepted');
  }

  it("gives every eval the set's environment, the context defaulting to the Dockerfile's folder", async () => {
    const set = await load(
      base({ environment: { dockerfile: 'env/Dockerfile', setup: ['npm ci', 'npm run build'] } }),
    );
    for (const e of set.evals) {
      expect(e.environment).to.deep.equal({
        dockerfile: path.join(dir, 'env/Dockerfile'),
        context: path.join(dir, 'env'),
        setup: ['npm ci', 'npm run build'],
      });
    }
  });

  it("lets an eval replace the set's environment whole, with no setup by default", async () => {
    const set = await load(
      base(
        { environment: { dockerfile: 'env/Dockerfile', setup: ['npm ci'] } },
        { environment: { dockerfile: 'other.Dockerfile', context: '.' } },
      ),
    );
    expect(set.evals[0]!.environment).to.deep.equal({
      dockerfile: path.join(dir, 'other.Dockerfile'),
      context: dir,
      setup: [],
    });
    expect(set.evals[1]!.environment?.dockerfile).to.equal(path.join(dir, 'env/Dockerfile'));
  });

  it('leaves an eval set without environment as it was (no field)', async () => {
    const set = await load(base());
    expect(set.evals[0]).to.not.have.property('environment');
  });

  it('refuses a Dockerfile that does not exist, or is a folder', async () => {
    await expectProblem(
      base({ environment: { dockerfile: 'env/Nope' } }),
      '/environment/dockerfile',
      'no such file',
    );
    await expectProblem(
      base({ environment: { dockerfile: 'env/files' } }),
      '/environment/dockerfile',
      'not a regular file',
    );
  });

  it("refuses a Dockerfile or a context out of the eval set's folder, by letters or by link", async () => {
    await expectProblem(
      base({ environment: { dockerfile: '../secret.txt' } }),
      '/environment/dockerfile',
      "climbs out of the eval set's folder",
    );
    await expectProblem(
      base({ environment: { dockerfile: '/etc/passwd' } }),
      '/environment/dockerfile',
      'is absolute',
    );
    await expectProblem(
      base({ environment: { dockerfile: 'env/Dockerfile', context: '..' } }),
      '/environment/context',
      "climbs out of the eval set's folder",
    );
    await symlink(path.join(root, 'secret.txt'), path.join(dir, 'env/files/key'));
    await expectProblem(
      base({}, { environment: { dockerfile: 'env/Dockerfile' } }),
      '/evals/0/environment/dockerfile',
      'a symbolic link that leads out',
    );
  });

  it('refuses a Dockerfile outside its build context', async () => {
    await expectProblem(
      base({ environment: { dockerfile: 'other.Dockerfile', context: 'env' } }),
      '/environment/dockerfile',
      'is not inside the build context',
    );
  });

  it('refuses unknown fields and an empty setup command (schema)', async () => {
    await expectProblem(
      base({ environment: { dockerfile: 'env/Dockerfile', image: 'x' } }),
      '/environment',
      'unknown field',
    );
    await expectProblem(
      base({ environment: { dockerfile: 'env/Dockerfile', setup: [''] } }),
      '/environment/setup/0',
      '',
    );
  });
});
