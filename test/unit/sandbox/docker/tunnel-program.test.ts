import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  FRAME,
  FrameDecoder,
  encodeFrame,
  type Frame,
} from '../../../../src/sandbox/sync/frames.js';

/**
 * The tunnel program's sandbox end (stand-in/tunnel), run as a plain process
 * on real Unix sockets: the agent's clients connect to it, the test plays the host.
 */
describe('sandbox/docker: the tunnel program', () => {
  let dir: string;
  let child: ChildProcess;
  const frames: Frame[] = [];
  const waiting: Array<() => void> = [];
  const next = async (): Promise<Frame> => {
    while (frames.length === 0) await new Promise<void>((r) => waiting.push(r));
    return frames.shift()!;
  };
  const clients: Socket[] = [];
  let socketPath: string;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'evalrig-tunnel-program-'));
    socketPath = path.join(dir, 's.sock');
    child = spawn(process.execPath, ['--import', 'tsx', 'stand-in/tunnel/main.ts', socketPath], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    // Killed at the end of a test: a write still under way fails, and that is no fault.
    child.stdin!.on('error', () => undefined);
    const decoder = new FrameDecoder();
    child.stdout!.on('data', (c: Buffer) => {
      frames.push(...decoder.push(c));
      for (const w of waiting.splice(0)) w();
    });
    expect((await next()).type).to.equal(FRAME.ready);
  });
  afterEach(async () => {
    for (const c of clients) c.destroy();
    child.kill('SIGKILL');
    frames.length = 0;
    await rm(dir, { recursive: true, force: true });
  });

  async function client(): Promise<{ socket: Socket; id: number }> {
    const socket = connect(socketPath);
    clients.push(socket);
    const open = await next();
    expect(open.type).to.equal(FRAME.open);
    return { socket, id: open.id };
  }

  it('carries data again after a client hung up while the host was writing to it', async function () {
    this.timeout(30_000);
    // An agent's client that stops reading, then goes away mid-answer, never drains.
    const first = await client();
    first.socket.pause();
    child.stdin!.write(encodeFrame(FRAME.data, first.id, Buffer.alloc(256 * 1024, 0x61)));
    child.stdin!.write(encodeFrame(FRAME.data, first.id, Buffer.alloc(256 * 1024, 0x61)));
    first.socket.destroy();
    // The hang-up may reach the tunnel as an end first (its EOF read before the pending write
    // fails, as under load): the close follows it.
    let gone = await next();
    if (gone.type === FRAME.end) gone = await next();
    expect(gone.type).to.equal(FRAME.close);
    const second = await client();
    const got = new Promise<string>((r) =>
      second.socket.once('data', (d: Buffer) => r(d.toString())),
    );
    child.stdin!.write(encodeFrame(FRAME.data, second.id, Buffer.from('hello')));
    expect(await got).to.equal('hello');
  });
});
