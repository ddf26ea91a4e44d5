import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { runCampaign } from '../../../src/campaign/campaign.js';
import {
  checkResourcesAgainstEngine,
  EvalSetError,
  loadEvalSet,
  refuseBeyondEngine,
  type EvalSet,
} from '../../../src/config/index.js';
import { EvalrigError } from '../../../src/errors/index.js';
import { listContainers, LABELS } from '../../../src/runtime/index.js';
import { requireDocker, testDocker } from '../../support/docker.js';

const GiB = 1024 ** 3;

/**
 * How many CPUs and how much memory the engine has is known only when a
 * campaign starts: resources beyond them are refused then, at their pointer,
 * before anything is created (Docker refuses more CPUs than it has, so every
 * run would fail at the engine; a memory limit above its memory holds nothing).
 */
describe('resources checked against the engine', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'evalrig-engine-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function setWith(resources?: Record<string, unknown>): Promise<EvalSet> {
    return loadEvalSet(await writeSet(resources));
  }

  async function writeSet(resources?: Record<string, unknown>): Promise<string> {
    const file = path.join(dir, 'evals.json');
    const doc = {
      name: 'engine-refusal',
      agent: { command: ['true'] },
      evals: [{ id: 'one', prompt: 'p' }],
      ...(resources ? { resources } : {}),
    };
    await writeFile(file, JSON.stringify(doc));
    return file;
  }

  describe('checkResourcesAgainstEngine', () => {
    it('refuses more CPUs than the engine has, at /resources/cpus', async () => {
      const problems = checkResourcesAgainstEngine(await setWith({ cpus: 64 }), {
        cpus: 2,
        memoryBytes: 8 * GiB,
      });
      expect(problems).to.deep.equal([
        {
          pointer: '/resources/cpus',
          message:
            'asks for 64 CPUs but the engine has 2; Docker refuses such a container: lower resources.cpus to at most 2',
        },
      ]);
    });

    it('says when the value refused is the default', async () => {
      const [problem] = checkResourcesAgainstEngine(await setWith(), { cpus: 1, memoryBytes: GiB });
      expect(problem!.message).to.include('asks for 2 CPUs (the default) but the engine has 1');
      const memory = checkResourcesAgainstEngine(await setWith(), { cpus: 1, memoryBytes: GiB })[1];
      expect(memory).to.deep.equal({
        pointer: '/resources/memory',
        message:
          'asks for 2 GiB (the default) but the engine has 1 GiB, so the limit would hold nothing: lower resources.memory',
      });
    });

    it('refuses more memory than the engine has, at /resources/memory', async () => {
      const problems = checkResourcesAgainstEngine(await setWith({ memory: '64g', cpus: 1 }), {
        cpus: 4,
        memoryBytes: 15.5 * GiB,
      });
      expect(problems.map((p) => p.pointer)).to.deep.equal(['/resources/memory']);
      expect(problems[0]!.message).to.include('asks for 64 GiB but the engine has 15872 MiB');
    });

    it('accepts what fits, up to the engine exactly, and checks nothing the engine did not state', async () => {
      const set = await setWith({ cpus: 2, memory: '2g' });
      expect(checkResourcesAgainstEngine(set, { cpus: 2, memoryBytes: 2 * GiB })).to.deep.equal([]);
      expect(checkResourcesAgainstEngine(set, { cpus: 0, memoryBytes: 0 })).to.deep.equal([]);
    });
  });

  describe('refuseBeyondEngine', () => {
    it('throws an EvalSetError (exit 2) naming the file and each pointer', async () => {
      const set = await setWith({ cpus: 3 });
      const info = () => Promise.resolve({ NCPU: 2, MemTotal: 8 * GiB });
      const error = await refusal(refuseBeyondEngine('my/evals.json', set, info));
      expect(error).to.be.instanceOf(EvalSetError);
      expect((error as EvalSetError).exitCode).to.equal(2);
      expect(error.message.split('\n')[1]).to.match(
        /^ {2}my\/evals\.json#\/resources\/cpus: asks for 3 CPUs/,
      );
    });

    it('gives up on an engine that does not answer, within its bound', async () => {
      const set = await setWith();
      const silent = () => new Promise<never>(() => undefined);
      const error = await refusal(refuseBeyondEngine('evals.json', set, silent, 50));
      expect(error).to.be.instanceOf(EvalrigError);
      expect(error.message).to.equal(
        'the Docker engine did not say how many CPUs and how much memory it has: no answer within 50 ms',
      );
    });
  });

  describe('a campaign on the real engine', function () {
    this.timeout(60_000);
    before(requireDocker);

    it('is refused before anything is created when it asks for more CPUs than the engine has', async () => {
      const client = testDocker();
      const info = (await client.docker.info()) as { NCPU: number };
      const file = await writeSet({ cpus: info.NCPU + 1 });
      const outDir = path.join(dir, 'out');
      const before = await listContainers(client, {});
      const error = await refusal(runCampaign({ evalSetFile: file, outDir, client }));
      expect(error).to.be.instanceOf(EvalSetError);
      expect((error as EvalSetError).problems.map((p) => p.pointer)).to.deep.equal([
        '/resources/cpus',
      ]);
      expect(await readdir(dir), 'no output folder').to.deep.equal(['evals.json']);
      const after = await listContainers(client, {});
      const made = after.filter((c) => !before.some((b) => b.Id === c.Id));
      expect(
        made.filter((c) => c.Labels?.[LABELS.campaign]?.startsWith('engine-refusal')),
      ).to.deep.equal([]);
    });
  });
});

async function refusal(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  return expect.fail('it was accepted');
}
