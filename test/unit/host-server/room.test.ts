import { expect } from 'chai';
import { execa } from 'execa';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EvalrigError } from '../../../src/errors/index.js';
import { makeSocketRoom } from '../../../src/host-server/index.js';

describe('host-server: the room made for a socket before it is bound', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'evalrig-host-server-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
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
