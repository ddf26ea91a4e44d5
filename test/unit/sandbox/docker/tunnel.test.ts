import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Duplex, PassThrough } from 'node:stream';
import {
  FRAME,
  FrameDecoder,
  encodeFrame,
  type Frame,
} from '../../../../src/sandbox/sync/frames.js';
import { Tunnel } from '../../../../src/sandbox/docker/tunnel.js';

/**
 * The host's end of the socket tunnel, fed frames as a subverted tunnel
 * program could send them: names not served are refused, connections are
 * bounded, a bad frame ends the tunnel; a served name reaches the host socket.
 */
describe('sandbox/docker: the tunnel’s host end', () => {
  let dir: string;
  let server: Server;
  let got: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'evalrig-tunnel-'));
    got = '';
    server = createServer({ allowHalfOpen: true }, (c) => {
      c.on('data', (d) => {
        got += d.toString();
      });
      c.on('end', () => c.end(`echo:${got}`));
    });
    await new Promise<void>((r) => server.listen(path.join(dir, 'h.sock'), r));
  });
  afterEach(async () => {
    server.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** A tunnel over in-memory streams: `send` plays the sandbox, `next` reads what the host sent. */
  async function tunnel(maxConnections = 64) {
    const fromSandbox = new PassThrough();
    const decoder = new FrameDecoder();
    const sent: Frame[] = [];
    const waiting: Array<() => void> = [];
    const toSandbox = new Duplex({
      read() {},
      write(chunk: Buffer, _e, cb) {
        sent.push(...decoder.push(chunk));
        for (const w of waiting.splice(0)) w();
        cb();
      },
    });
    const next = async (): Promise<Frame> => {
      while (sent.length === 0) await new Promise<void>((r) => waiting.push(r));
      return sent.shift()!;
    };
    const send = (type: (typeof FRAME)[keyof typeof FRAME], id: number, payload = '') =>
      fromSandbox.write(encodeFrame(type, id, Buffer.from(payload)));
    const opening = Tunnel.attach(toSandbox, fromSandbox, new PassThrough(), {
      routes: new Map([['/run/s/h.sock', path.join(dir, 'h.sock')]]),
      user: '65534:65534',
      program: '/unused',
      maxConnections,
    });
    send(FRAME.ready, 0);
    return { t: await opening, send, next, raw: (b: Buffer) => fromSandbox.write(b) };
  }

  it('carries a connection to the host socket of its name, both ways', async () => {
    const { t, send, next } = await tunnel();
    send(FRAME.open, 7, '/run/s/h.sock');
    send(FRAME.data, 7, 'ping');
    send(FRAME.end, 7);
    const data = await next();
    expect([data.type, data.id, data.payload.toString()]).to.deep.equal([
      FRAME.data,
      7,
      'echo:ping',
    ]);
    expect((await next()).type).to.equal(FRAME.end);
    t.close();
  });

  it('refuses a name it does not serve, and connections past its bound', async () => {
    const { t, send, next } = await tunnel(1);
    send(FRAME.open, 1, '/run/s/other.sock');
    expect(await next()).to.deep.include({ type: FRAME.close, id: 1 });
    send(FRAME.open, 2, '/run/s/h.sock');
    send(FRAME.open, 3, '/run/s/h.sock');
    expect(await next()).to.deep.include({ type: FRAME.close, id: 3 });
    expect(t.open).to.equal(1);
    t.close();
  });

  it('ends at a frame over its cap, saying why', async () => {
    const { t, raw } = await tunnel();
    const header = Buffer.alloc(9);
    header.writeUInt8(FRAME.data, 0);
    header.writeUInt32BE(1, 1);
    header.writeUInt32BE(2 ** 30, 5);
    raw(header);
    // The stream's data is handled on a later turn of the event loop.
    while (t.failure === undefined) await new Promise<void>((r) => setImmediate(r));
    expect(t.failure).to.match(/cap/u);
  });

  it('stops reading a host socket while the sandbox reads nothing, and carries all once it does', async () => {
    // A host socket answering 32 MB to a sandbox that never reads: the host must not buffer it all.
    const total = 32 * 1024 * 1024;
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const bigDir = await mkdtemp(path.join(tmpdir(), 'evalrig-tunnel-big-'));
    const big = createServer((c) => {
      let written = 0;
      const more = (): void => {
        while (written < total) {
          written += chunk.length;
          if (!c.write(chunk)) {
            c.once('drain', more);
            return;
          }
        }
        c.end();
      };
      more();
    });
    await new Promise<void>((r) => big.listen(path.join(bigDir, 'big.sock'), r));
    const fromSandbox = new PassThrough();
    const held: Array<() => void> = [];
    let stalled = true;
    let received = 0;
    const decoder = new FrameDecoder();
    let ended!: () => void;
    const gotEnd = new Promise<void>((r) => (ended = r));
    const toSandbox = new Duplex({
      read() {},
      write(c: Buffer, _e, cb) {
        for (const f of decoder.push(c)) {
          if (f.type === FRAME.data) received += f.payload.length;
          if (f.type === FRAME.end) ended();
        }
        if (stalled) held.push(cb);
        else cb();
      },
    });
    const opening = Tunnel.attach(toSandbox, fromSandbox, new PassThrough(), {
      routes: new Map([['/run/s/big.sock', path.join(bigDir, 'big.sock')]]),
      user: '65534:65534',
      program: '/unused',
    });
    fromSandbox.write(encodeFrame(FRAME.ready, 0));
    const t = await opening;
    try {
      fromSandbox.write(encodeFrame(FRAME.open, 9, Buffer.from('/run/s/big.sock')));
      const connections = (t as unknown as { connections: Map<number, Socket> }).connections;
      // Either the host pauses the socket, or it buffers past any reason.
      for (;;) {
        const socket = connections.get(9);
        if (socket?.isPaused()) break;
        expect(toSandbox.writableLength, 'bytes the host buffered').to.be.below(8 * 1024 * 1024);
        await new Promise<void>((r) => setImmediate(r));
      }
      expect(toSandbox.writableLength).to.be.below(1024 * 1024);
      stalled = false;
      for (const cb of held.splice(0)) cb();
      await gotEnd;
      expect(received).to.equal(total);
    } finally {
      t.close();
      big.close();
      await rm(bigDir, { recursive: true, force: true });
    }
  });

  it('reads the tunnel again when a slow host socket closes instead of draining', async () => {
    // A host socket that hangs up with a write pending never drains: the tunnel must not stay paused.
    const rude = createServer((c) => c.once('data', () => c.destroy()));
    await new Promise<void>((r) => rude.listen(path.join(dir, 'rude.sock'), r));
    const fromSandbox = new PassThrough();
    const toSandbox = new Duplex({
      read() {},
      write(_c: Buffer, _e, cb) {
        cb();
      },
    });
    const opening = Tunnel.attach(toSandbox, fromSandbox, new PassThrough(), {
      routes: new Map([['/run/s/rude.sock', path.join(dir, 'rude.sock')]]),
      user: '65534:65534',
      program: '/unused',
    });
    fromSandbox.write(encodeFrame(FRAME.ready, 0));
    const t = await opening;
    try {
      fromSandbox.write(encodeFrame(FRAME.open, 1, Buffer.from('/run/s/rude.sock')));
      fromSandbox.write(encodeFrame(FRAME.data, 1, Buffer.alloc(256 * 1024, 0x62)));
      while (!toSandbox.isPaused()) await new Promise<void>((r) => setImmediate(r));
      while (t.open > 0) await new Promise<void>((r) => setImmediate(r));
      await new Promise<void>((r) => setImmediate(r));
      expect(toSandbox.isPaused(), 'the tunnel still paused').to.equal(false);
    } finally {
      t.close();
      rude.close();
    }
  });
});
