import { expect } from 'chai';
import { execa } from 'execa';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EvalrigError } from '../../../src/errors/index.js';
import { checkServerOptions, makeSocketRoom } from '../../../src/host-socket/index.js';

describe('host-socket: what the host socket servers check before they listen', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'evalrig-host-socket-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses a bound that is not a positive integer, and a relative socket path, naming the server', () => {
    const socketPath = path.join(dir, 's.sock');
    expect(() =>
      checkServerOptions('gh recorder', { socketPath, maxCalls: 3 }, ['maxCalls']),
    ).to.not.throw();
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      expect(() =>
        checkServerOptions('gh recorder', { socketPath, maxCalls: bad }, ['maxCalls']),
      ).to.throw(EvalrigError, `gh recorder: maxCalls must be a positive integer, not ${bad}`);
    }
    expect(() =>
      checkServerOptions('model gateway', { socketPath: 'rel/s.sock', maxConnections: 1 }, [
        'maxConnections',
      ]),
    ).to.throw(EvalrigError, 'model gateway: the socket path rel/s.sock is not absolute');
  });

  it('removes a socket left by an earlier server, refuses anything else and a folder that is not one', async () => {
    const socketPath = path.join(dir, 's.sock');
    await makeSocketRoom('gh recorder', socketPath); // nothing there: nothing to do
    // A server killed outright leaves its socket file behind (a clean close removes it).
    const old = execa('node', [
      '-e',
      `require('node:net').createServer().listen(${JSON.stringify(socketPath)}, () => console.log('up'))`,
    ]);
    await new Promise<void>((resolve) => old.stdout.once('data', () => resolve()));
    old.kill('SIGKILL');
    await old.catch(() => undefined);
    expect((await stat(socketPath)).isSocket(), 'the socket left behind').to.equal(true);
    await makeSocketRoom('gh recorder', socketPath);
    await stat(socketPath).then(
      () => expect.fail('the old socket is still there'),
      (e: NodeJS.ErrnoException) => expect(e.code).to.equal('ENOENT'),
    );

    await writeFile(socketPath, 'a file');
    const refused = await makeSocketRoom('model gateway', socketPath).catch((e: unknown) => e);
    expect(refused).to.be.instanceOf(EvalrigError);
    expect((refused as Error).message).to.equal(
      `model gateway: ${socketPath} exists and is not a socket`,
    );
    expect((await stat(socketPath)).isFile(), 'never removed').to.equal(true);

    const notFolder = await makeSocketRoom('gh recorder', path.join(socketPath, 'x.sock')).catch(
      (e: unknown) => e,
    );
    expect((notFolder as Error).message).to.equal(
      `gh recorder: the socket folder ${socketPath} is not a folder`,
    );
  });
});
