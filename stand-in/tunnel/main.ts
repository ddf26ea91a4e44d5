/**
 * tunnel: serves Unix sockets inside a sandbox whose engine cannot mount the
 * host's, and carries each connection over this process's stdin/stdout to the
 * host (src/sandbox/docker/tunnel.ts), which opens the host socket of the same
 * name. Node's standard library only; bundled to one file and copied into the
 * sandbox at its start.
 *
 *   tunnel /run/evalrig/gh.sock /run/evalrig-model/model.sock
 *
 * It runs as the sandbox's keeper (not the agent's user), in folders the keeper
 * owns with mode 0711: the agent may connect to a socket (mode 0666) but can
 * neither remove nor replace it. Frames: see src/sandbox/sync/frames.ts.
 */
import { chmodSync, unlinkSync } from 'node:fs';
import net from 'node:net';
import {
  FRAME,
  FrameDecoder,
  dataFrames,
  encodeFrame,
  type Frame,
} from '../../src/sandbox/sync/frames.js';

const paths = process.argv.slice(2);
if (paths.length === 0 || paths.some((p) => !p.startsWith('/'))) {
  process.stderr.write('usage: tunnel /absolute/socket/path...\n');
  process.exit(2);
}

const connections = new Map<number, net.Socket>();
let nextId = 1;
let outputBlocked = false;

function send(frame: Buffer): void {
  if (!process.stdout.write(frame) && !outputBlocked) {
    // The host reads slowly: stop reading every socket until it drains.
    outputBlocked = true;
    for (const s of connections.values()) s.pause();
    process.stdout.once('drain', () => {
      outputBlocked = false;
      for (const s of connections.values()) s.resume();
    });
  }
}

function accept(name: string, socket: net.Socket): void {
  const id = nextId++;
  connections.set(id, socket);
  if (outputBlocked) socket.pause();
  send(encodeFrame(FRAME.open, id, Buffer.from(name)));
  socket.on('data', (chunk: Buffer) => {
    for (const f of dataFrames(id, chunk)) send(f);
  });
  socket.on('end', () => send(encodeFrame(FRAME.end, id)));
  socket.on('error', () => undefined);
  socket.on('close', () => {
    if (connections.delete(id)) send(encodeFrame(FRAME.close, id));
  });
}

/** Ends a connection once what was written to it is flushed (destroy alone would drop it). */
function closeAfterFlush(socket: net.Socket): void {
  if (socket.writableFinished) socket.destroy();
  else {
    socket.once('finish', () => socket.destroy());
    socket.end();
  }
}

function onFrame(frame: Frame): void {
  const socket = connections.get(frame.id);
  if (!socket) return;
  if (frame.type === FRAME.data) {
    if (!socket.write(frame.payload)) {
      process.stdin.pause();
      // A client that hangs up with a write pending never drains: its close resumes too.
      const resume = (): void => {
        socket.off('drain', resume);
        socket.off('close', resume);
        process.stdin.resume();
      };
      socket.once('drain', resume);
      socket.once('close', resume);
    }
  } else if (frame.type === FRAME.end) {
    socket.end();
  } else if (frame.type === FRAME.close) {
    connections.delete(frame.id);
    closeAfterFlush(socket);
  }
}

const decoder = new FrameDecoder();
process.stdin.on('data', (chunk: Buffer) => {
  try {
    for (const frame of decoder.push(chunk)) onFrame(frame);
  } catch (error) {
    process.stderr.write(`tunnel: ${(error as Error).message}\n`);
    process.exit(3);
  }
});
// The host went away: nothing is served any more.
process.stdin.on('end', () => process.exit(0));

let listening = 0;
for (const socketPath of paths) {
  try {
    unlinkSync(socketPath);
  } catch {
    // Not there yet.
  }
  // Half-open: a client that ends its request still reads the answer.
  const server = net.createServer({ allowHalfOpen: true }, (socket) => accept(socketPath, socket));
  server.on('error', (error) => {
    process.stderr.write(`tunnel: ${socketPath}: ${error.message}\n`);
    process.exit(4);
  });
  server.listen(socketPath, () => {
    chmodSync(socketPath, 0o666);
    listening++;
    if (listening === paths.length) send(encodeFrame(FRAME.ready, 0));
  });
}
