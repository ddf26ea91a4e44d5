import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { InputError } from '../../../src/errors/index.js';
import { startViewServer } from '../../../src/view/server.js';

describe('view server: its port', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'evalrig-view-port-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('says a --port in use is in use (an input error), and its close may be called twice', async () => {
    const first = await startViewServer({ outDir: dir });
    const second = await startViewServer({ outDir: dir, port: first.port }).catch(
      (e: unknown) => e,
    );
    expect(second).to.be.instanceOf(InputError);
    expect((second as Error).message).to.equal(`--port ${first.port} is in use`);
    await Promise.all([first.close(), first.close()]);
  });
});
