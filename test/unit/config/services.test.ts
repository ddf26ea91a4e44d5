import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { EvalSetError, loadEvalSet } from '../../../src/config/index.js';

/**
 * Services in an eval set (and an eval's, replacing them whole): a name that is
 * a host name, one image (a Dockerfile inside the folder, or a local image),
 * one readiness check, defaults applied; each mistake named at its pointer.
 */
describe('config: services', () => {
  let root: string;
  let dir: string;

  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'evalrig-services-'));
    dir = path.join(root, 'set');
    await mkdir(path.join(dir, 'db'), { recursive: true });
    await writeFile(path.join(dir, 'db/Dockerfile'), 'ARG BASE_IMAGE\nFROM ${BASE_IMAGE}\n');
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  const db = { dockerfile: 'db/Dockerfile', ready: { command: 'pg_isready -q' } };
  const set = (services: unknown, evalServices?: unknown) => ({
    name: 'svc',
    agent: { command: ['agent'] },
    services,
    evals: [
      { id: 'one', prompt: 'p', ...(evalServices === undefined ? {} : { services: evalServices }) },
      { id: 'two', prompt: 'p' },
    ],
  });

  async function load(doc: unknown) {
    const file = path.join(dir, 'evals.json');
    await writeFile(file, JSON.stringify(doc));
    return loadEvalSet(file);
  }

  async function problems(doc: unknown): Promise<string[]> {
    try {
      await load(doc);
    } catch (error) {
      expect(error).to.be.instanceOf(EvalSetError);
      return (error as EvalSetError).problems.map((p) => `${p.pointer}: ${p.message}`);
    }
    return [];
  }

  it("gives every eval the set's services with defaults; an eval's replace them ({} for none)", async () => {
    const loaded = await load(
      set({ db }, { cache: { image: 'local-cache:1', command: ['serve'], ready: { port: 6379 } } }),
    );
    const [one, two] = loaded.evals;
    expect(one!.services).to.deep.equal([
      {
        name: 'cache',
        image: { local: 'local-cache:1' },
        command: ['serve'],
        env: {},
        ready: { port: 6379, timeout: 60 },
        resources: { memory_bytes: 512 * 1024 ** 2, cpus: 1, pids: 256 },
        setup: [],
      },
    ]);
    expect(two!.services).to.deep.equal([
      {
        name: 'db',
        image: { dockerfile: path.join(dir, 'db/Dockerfile'), context: path.join(dir, 'db') },
        env: {},
        ready: { command: 'pg_isready -q', timeout: 60 },
        resources: { memory_bytes: 512 * 1024 ** 2, cpus: 1, pids: 256 },
        setup: [],
      },
    ]);
    const none = await load(set({ db }, {}));
    expect(none.evals[0]!.services).to.equal(undefined);
  });

  it('names each mistake at its pointer', async () => {
    const found = await problems(
      set({
        Bad_Name: db,
        both: { ...db, image: 'x:1' },
        neither: { ready: { port: 1 } },
        ready2: { image: 'x:1', ready: { port: 5432, command: 'true' } },
        noready: { image: 'x:1', ready: {} },
        ctx: { image: 'x:1', context: 'db', ready: { port: 1 } },
        outside: { dockerfile: '../Dockerfile', ready: { port: 1 } },
        tiny: { image: 'x:1', ready: { port: 1 }, resources: { memory: '1m' } },
      }),
    );
    const expected = [
      /^\/services\/Bad_Name: .*host name/u,
      /^\/services\/both: give either "dockerfile" or "image", not both/u,
      /^\/services\/neither: give its image/u,
      /^\/services\/ready2\/ready: give either "command" or "port"/u,
      /^\/services\/noready\/ready: give "command"/u,
      /^\/services\/ctx\/context: "context" goes with "dockerfile"/u,
      /^\/services\/outside\/dockerfile: /u,
      /^\/services\/tiny\/resources\/memory: must be at least 6m/u,
    ];
    for (const e of expected) {
      expect(
        found.some((f) => e.test(f)),
        `${String(e)} in:\n${found.join('\n')}`,
      ).to.equal(true);
    }
  });

  it("checks an eval's own services at its pointer", async () => {
    const found = await problems(set({ db }, { db: { ready: { port: 70000 } } }));
    expect(found.some((f) => f.startsWith('/evals/0/services/db'))).to.equal(true);
  });
});
