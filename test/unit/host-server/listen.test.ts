import { expect } from 'chai';
import { lstat, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { listen, ListenError } from '../../../src/host-server/index.js';

/** A client connected to `where`, once the connection is up. */
function connectTo(where: { path: string } | { port: number; host: string }): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(where as { path: string });
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

const gone = (file: string): Promise<boolean> =>
  lstat(file).then(
    () => false,
    (e: NodeJS.ErrnoException) => e.code === 'ENOENT',
  );

describe('host-server: listen, and the one close of a listening server', () => {
  let dir: string;
  const servers: Server[] = [];
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'evalrig-host-server-'));
  });
  afterEach(async () => {
    for (const s of servers.splice(0)) s.close();
    await rm(dir, { recursive: true, force: true });
  });
  const server = (): Server => {
    const s = createServer(() => undefined); // takes each connection, answers nothing
    servers.push(s);
    return s;
  };

  it('listens on a Unix socket the container user may open, and its close ends a client that holds on and removes the socket', async () => {
    const socketPath = path.join(dir, 'g.sock');
    const listening = await listen(server(), { what: 'gh recorder', where: { socketPath } });
    expect([listening.socketPath, listening.port, listening.url]).to.deep.equal([
      socketPath,
      null,
      'http://localhost',
    ]);
    expect((await stat(socketPath)).mode & 0o777).to.equal(0o666);
    const client = await connectTo({ path: socketPath });
    const ended = new Promise<void>((resolve) => client.once('close', () => resolve()));
    await new Promise((r) => setImmediate(r));
    expect(listening.connections).to.equal(1);
    const first = listening.close();
    expect(listening.close(), 'twice is once').to.equal(first);
    await first;
    await ended; // the client never hung up: close did not wait for it
    expect(await gone(socketPath), 'the socket is removed').to.equal(true);
    await listening.close();
  });

  it('listens on a loopback port (0: any free one) and names it', async () => {
    const listening = await listen(server(), { what: 'model stand-in', where: { port: 0 } });
    expect(listening.host).to.equal('127.0.0.1');
    expect(listening.port).to.be.above(0);
    expect(listening.url).to.equal(`http://127.0.0.1:${listening.port}`);
    expect(listening.socketPath).to.equal(null);
    (await connectTo({ port: listening.port!, host: '127.0.0.1' })).destroy();
    await listening.close();
  });

  it('refuses a port in use with a ListenError naming the server, the address and the code', async () => {
    const first = await listen(server(), { what: 'model stand-in', where: { port: 0 } });
    const refused = await listen(server(), {
      what: 'upstream simulator',
      where: { port: first.port! },
    }).catch((e: unknown) => e);
    expect(refused).to.be.instanceOf(ListenError);
    expect((refused as ListenError).code).to.equal('EADDRINUSE');
    expect(servers[1]!.listening, 'the refused server is not left listening').to.equal(false);
    expect((refused as Error).message).to.match(
      new RegExp(`^upstream simulator: cannot listen on 127\\.0\\.0\\.1:${first.port} \\(`),
    );
    await first.close();
  });

  it('refuses a socket path too long for a socket address before binding (Node would cut it and bind there)', async () => {
    const socketPath = path.join(dir, `${'x'.repeat(120)}.sock`);
    const s = server();
    const refused = await listen(s, { what: 'model gateway', where: { socketPath } }).catch(
      (e: unknown) => e,
    );
    expect(refused).to.be.instanceOf(ListenError);
    expect((refused as ListenError).code).to.equal('ENAMETOOLONG');
    expect((refused as Error).message).to.match(
      /^model gateway: the socket path .* is \d+ bytes, longer than the 107 a Unix socket's address holds$/,
    );
    expect(s.listening).to.equal(false);
    expect(await readdir(dir), 'nothing bound, at any path').to.deep.equal([]);
  });

  it("never takes a live server's path: a second listen on it is refused, the first keeps its socket", async () => {
    const socketPath = path.join(dir, 'g.sock');
    const first = await listen(server(), { what: 'gh recorder', where: { socketPath } });
    const refused = await listen(server(), { what: 'gh recorder', where: { socketPath } }).catch(
      (e: unknown) => e,
    );
    expect((refused as Error).message).to.equal(
      `gh recorder: a server still listens on ${socketPath}`,
    );
    (await connectTo({ path: socketPath })).destroy();
    await first.close();
    expect(await gone(socketPath)).to.equal(true);
  });

  it('hands an error of the server once listening to onError, and never throws it', async () => {
    const seen: string[] = [];
    const s = server();
    const listening = await listen(s, {
      what: 'gh recorder',
      where: { socketPath: path.join(dir, 'g.sock') },
      onError: (e) => seen.push(e.message),
    });
    s.emit('error', new Error('accept failed: EMFILE'));
    expect(seen).to.deep.equal(['accept failed: EMFILE']);
    const quiet = await listen(server(), { what: 'model stand-in', where: { port: 0 } });
    expect(() => (servers.at(-1)! as Server).emit('error', new Error('EMFILE'))).to.not.throw();
    await Promise.all([listening.close(), quiet.close()]);
  });
});
