/**
 * The host's end of a sandbox's socket tunnel: one long-lived exec runs the
 * tunnel program (stand-in/tunnel) as the keeper, and each connection the
 * agent opens to a tunnelled socket becomes a connection to the host socket
 * it maps to. Everything read from the exec is untrusted: frames are capped
 * (see frames.ts), a name that is not one of the routes is refused, and at
 * most `maxConnections` are open at once.
 */
import { createConnection, type Socket } from 'node:net';
import { PassThrough, type Duplex, type Readable } from 'node:stream';
import type Docker from 'dockerode';
import {
  FRAME,
  FrameDecoder,
  FrameError,
  dataFrames,
  encodeFrame,
  type Frame,
} from '../sync/frames.js';

export interface TunnelOptions {
  /** Container socket path → host socket path. */
  readonly routes: ReadonlyMap<string, string>;
  /** The keeper's `uid:gid`: the tunnel never runs as the agent. */
  readonly user: string;
  /** The tunnel program's path inside the sandbox. */
  readonly program: string;
  readonly maxConnections?: number;
  /** How long the sockets may take to listen. */
  readonly readyMs?: number;
}

const DEFAULT_MAX_CONNECTIONS = 64;

/** Ends a connection once what was written to it is flushed (destroy alone would drop it). */
function closeAfterFlush(socket: Socket): void {
  if (socket.writableFinished) socket.destroy();
  else {
    socket.once('finish', () => socket.destroy());
    socket.end();
  }
}

/** A running tunnel; {@link Tunnel.close} ends it and every connection. */
export class Tunnel {
  private readonly connections = new Map<number, Socket>();
  private closed = false;
  /** The sandbox reads slowly: every host socket is paused until the exec's stdin drains. */
  private outputBlocked = false;
  /** Why the tunnel stopped carrying, when it did (a bad frame, the exec ended). */
  failure: string | undefined;
  private stderr = '';

  private constructor(
    private readonly stream: Duplex,
    private readonly options: TunnelOptions,
  ) {}

  /** Starts the tunnel in `container` and resolves once every socket listens. */
  static async open(
    docker: Docker,
    container: Docker.Container,
    options: TunnelOptions,
  ): Promise<Tunnel> {
    const exec = await container.exec({
      Cmd: ['node', options.program, ...options.routes.keys()],
      AttachStdin: true,
      AttachStdout: true,
      AttachStderr: true,
      User: options.user,
      Env: ['NODE_OPTIONS=', 'PATH=/usr/local/bin:/usr/bin:/bin'],
    });
    const stream = (await exec.start({ hijack: true, stdin: true })) as unknown as Duplex;
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    docker.modem.demuxStream(stream, stdout, stderr);
    return Tunnel.attach(stream, stdout, stderr, options);
  }

  /**
   * Carries connections over a tunnel program's streams: `stream` is written
   * to (its stdin) and closed, `stdout` and `stderr` are what it printed.
   * Resolves once it said every socket listens.
   */
  static async attach(
    stream: Duplex,
    stdout: Readable,
    stderr: Readable,
    options: TunnelOptions,
  ): Promise<Tunnel> {
    const tunnel = new Tunnel(stream, options);
    stderr.on('data', (c: Buffer) => {
      if (tunnel.stderr.length < 4096) tunnel.stderr += c.toString('utf8');
    });
    const ready = new Promise<void>((resolve, reject) => {
      const decoder = new FrameDecoder();
      let isReady = false;
      const timer = setTimeout(
        () => reject(new Error(`the tunnel did not listen within ${options.readyMs ?? 10_000} ms`)),
        options.readyMs ?? 10_000,
      );
      stdout.on('data', (chunk: Buffer) => {
        let frames: Frame[];
        try {
          frames = decoder.push(chunk);
        } catch (error) {
          tunnel.fail(error instanceof FrameError ? error.message : String(error));
          return;
        }
        for (const frame of frames) {
          if (frame.type === FRAME.ready && !isReady) {
            isReady = true;
            clearTimeout(timer);
            resolve();
          } else tunnel.onFrame(frame);
        }
      });
      const ended = (): void => {
        clearTimeout(timer);
        tunnel.fail(`the tunnel ended${tunnel.stderr ? `: ${tunnel.stderr.trim()}` : ''}`);
        if (!isReady) reject(new Error(tunnel.failure));
      };
      stream.on('end', ended);
      stream.on('close', ended);
      stream.on('error', ended);
    });
    try {
      await ready;
    } catch (error) {
      tunnel.close();
      throw error;
    }
    return tunnel;
  }

  /** How many connections are open now. */
  get open(): number {
    return this.connections.size;
  }

  private send(frame: Buffer): void {
    if (this.closed) return;
    if (!this.stream.write(frame) && !this.outputBlocked) {
      // Without this a sandbox that never reads would make the host buffer every answer.
      this.outputBlocked = true;
      for (const s of this.connections.values()) s.pause();
      this.stream.once('drain', () => {
        this.outputBlocked = false;
        for (const s of this.connections.values()) s.resume();
      });
    }
  }

  private onFrame(frame: Frame): void {
    if (this.closed) return;
    const socket = this.connections.get(frame.id);
    switch (frame.type) {
      case FRAME.open:
        this.accept(frame.id, frame.payload.toString('utf8'));
        return;
      case FRAME.data:
        if (socket && !socket.write(frame.payload)) {
          // The host socket is slow: stop reading the tunnel until it drains.
          this.stream.pause();
          // A socket that closes with a write pending never drains: its close resumes too.
          const resume = (): void => {
            socket.off('drain', resume);
            socket.off('close', resume);
            this.stream.resume();
          };
          socket.once('drain', resume);
          socket.once('close', resume);
        }
        return;
      case FRAME.end:
        socket?.end();
        return;
      case FRAME.close:
        this.connections.delete(frame.id);
        if (socket) closeAfterFlush(socket);
        return;
      default:
        // READY twice, or any other frame out of place: ignored.
        return;
    }
  }

  private accept(id: number, name: string): void {
    const target = this.options.routes.get(name);
    const max = this.options.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
    if (
      target === undefined ||
      id === 0 ||
      this.connections.has(id) ||
      this.connections.size >= max
    ) {
      this.send(encodeFrame(FRAME.close, id));
      return;
    }
    const socket = createConnection({ path: target, allowHalfOpen: true });
    this.connections.set(id, socket);
    if (this.outputBlocked) socket.pause();
    socket.on('data', (chunk: Buffer) => {
      for (const f of dataFrames(id, chunk)) this.send(f);
    });
    socket.on('end', () => this.send(encodeFrame(FRAME.end, id)));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      if (this.connections.get(id) === socket) {
        this.connections.delete(id);
        this.send(encodeFrame(FRAME.close, id));
      }
    });
  }

  private fail(reason: string): void {
    this.failure ??= reason;
    this.close();
  }

  /** Ends the exec's stream and every connection. Idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const socket of this.connections.values()) socket.destroy();
    this.connections.clear();
    this.stream.destroy();
  }
}
