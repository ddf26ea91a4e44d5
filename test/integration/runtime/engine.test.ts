import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  EngineLostError,
  bounded,
  connectDocker,
  watchEngine,
  type DockerClient,
} from '../../../src/runtime/index.js';

/**
 * Engine calls have a bound: an engine that accepts connections and never
 * answers (a unix socket nobody reads, as a frozen dockerd's is) or that is
 * gone is one EngineLostError, and the client's engine is lost from then on.
 */
describe('runtime: engine calls have a bound', () => {
  let dir: string;
  let server: Server;
  const sockets: Socket[] = [];
  let silent: DockerClient;

  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'evalrig-engine-test-'));
    server = createServer((s) => sockets.push(s));
    await new Promise<void>((r) => server.listen(path.join(dir, 'silent.sock'), r));
    silent = connectDocker({ DOCKER_HOST: `unix://${path.join(dir, 'silent.sock')}` });
  });
  after(async () => {
    for (const s of sockets) s.destroy();
    server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('a call with no answer fails at its bound, and every later call fails at once', async () => {
    const t0 = Date.now();
    const error = await bounded(silent, 'a ping', () => silent.docker.ping(), 300).catch(
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(EngineLostError);
    expect((error as Error).message).to.equal(
      `the Docker engine at ${silent.where} stopped answering (no answer to a ping within 0.3 s)`,
    );
    expect(Date.now() - t0).to.be.within(250, 2000);
    expect(silent.health?.lost).to.equal(error);
    const t1 = Date.now();
    const later = await bounded(silent, 'a listing', () => silent.docker.listContainers()).catch(
      (e: unknown) => e,
    );
    expect(later).to.equal(error);
    expect(Date.now() - t1).to.be.below(50);
  });

  it('an engine that is gone (no socket) is lost at the first call', async () => {
    const gone = connectDocker({ DOCKER_HOST: `unix://${path.join(dir, 'none.sock')}` });
    const error = await bounded(gone, 'a listing', () => gone.docker.listContainers()).catch(
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(EngineLostError);
    expect((error as EngineLostError).reason).to.equal('a listing: ENOENT');
    expect(gone.health?.lost).to.equal(error);
  });

  it('the watch marks a silent engine lost after its pings go unanswered, and releases waiting calls', async () => {
    const client = connectDocker({ DOCKER_HOST: `unix://${path.join(dir, 'silent.sock')}` });
    // A call with no time bound: only the watch can end it.
    const waiting = bounded(client, 'an exec', () => new Promise(() => {}), Infinity).catch(
      (e: unknown) => e,
    );
    const stop = watchEngine(client, { intervalMs: 50, pingBoundMs: 200, failures: 2 });
    try {
      const error = await waiting;
      expect(error).to.be.instanceOf(EngineLostError);
      expect((error as Error).message).to.contain('no answer to a ping within 0.2 s');
    } finally {
      stop();
    }
  });
});
