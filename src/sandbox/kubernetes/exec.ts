/**
 * A command in a pod's container through the API server's exec (WebSocket,
 * protocol v4). v4 cannot half-close stdin, so input is framed by its length:
 * the command reads exactly that many bytes (`head -c N`) and never waits on
 * an end of file that would not come.
 */
import { Exec, type V1Status } from '@kubernetes/client-node';
import { Duplex, PassThrough, Writable } from 'node:stream';
import type { Cluster } from './cluster.js';

export interface PodExecResult {
  readonly exitCode: number;
  readonly stdout: Buffer;
  readonly stderr: Buffer;
}

export interface PodExecOptions {
  readonly container?: string;
  /** Bytes the command reads on stdin: give it `head -c ${input.length}` to read them. */
  readonly input?: Buffer;
  /** Caps what is kept of stdout (the rest is counted, not kept). */
  readonly maxOutputBytes?: number;
  readonly timeoutMs?: number;
}

/** The largest stdin message sent at once. */
const INPUT_CHUNK = 256 * 1024;

/** The exec's own failure (not the command's exit code): names the pod. */
export class PodExecError extends Error {
  constructor(
    message: string,
    /** The API server could not reach the pod's node, or lost it mid-command. */
    readonly unreachable = false,
  ) {
    super(message);
    this.name = 'PodExecError';
  }
}

/** Whether `error`, or an error it was caused by, says the pod's node could not be reached. */
export function nodeUnreachable(error: unknown): boolean {
  for (let e = error; e instanceof Error; e = e.cause) {
    if (e instanceof PodExecError && e.unreachable) return true;
  }
  return false;
}

/** The exit code from the status frame the API server sends when the command ends. */
export function exitCodeOf(status: V1Status): number {
  if (status.status === 'Success') return 0;
  const cause = status.details?.causes?.find((c) => c.reason === 'ExitCode');
  if (cause?.message !== undefined) return Number(cause.message);
  throw new PodExecError(`exec failed: ${status.message ?? status.reason ?? 'no exit code'}`);
}

function collector(cap: number): { sink: Writable; data: () => Buffer } {
  const chunks: Buffer[] = [];
  let kept = 0;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (kept < cap) {
        const part = chunk.subarray(0, cap - kept);
        chunks.push(part);
        kept += part.length;
      }
      done();
    },
  });
  return { sink, data: () => Buffer.concat(chunks) };
}

export async function podExec(
  cluster: Cluster,
  pod: string,
  command: readonly string[],
  options: PodExecOptions = {},
): Promise<PodExecResult> {
  const cap = options.maxOutputBytes ?? 64 * 1024 * 1024;
  const out = collector(cap);
  const err = collector(1024 * 1024);
  let stdin: PassThrough | null = null;
  if (options.input) {
    stdin = new PassThrough();
    // Never ended: on protocol v4 the client's answer to an ended stdin is to close the socket.
    // In pieces: each write is one WebSocket message, and the API server drops the
    // connection on one of tens of MB (an agent's binary copied in).
    for (let at = 0; at < options.input.length; at += INPUT_CHUNK)
      stdin.write(options.input.subarray(at, at + INPUT_CHUNK));
  }
  const exec = new Exec(cluster.config);
  return new Promise<PodExecResult>((resolve, reject) => {
    let settled = false;
    const timer = options.timeoutMs
      ? setTimeout(
          () =>
            finish(new PodExecError(`exec in pod ${pod} timed out after ${options.timeoutMs} ms`)),
          options.timeoutMs,
        )
      : undefined;
    let socket: { close(): void } | undefined;
    function finish(outcome: Error | number): void {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      // stdin is never ended (see above), so the socket is ours to close.
      socket?.close();
      stdin?.destroy();
      if (typeof outcome === 'number') {
        resolve({ exitCode: outcome, stdout: out.data(), stderr: err.data() });
      } else reject(outcome);
    }
    exec
      .exec(
        cluster.namespace,
        pod,
        options.container ?? 'agent',
        [...command],
        out.sink,
        err.sink,
        stdin,
        false,
        (status) => {
          try {
            finish(exitCodeOf(status));
          } catch (error) {
            finish(error as Error);
          }
        },
      )
      .then((ws) => {
        socket = ws;
        if (settled) ws.close();
        // A socket closed with no status frame: the pod or the API server went away.
        ws.on('close', () =>
          setImmediate(() =>
            finish(
              new PodExecError(
                `exec in pod ${pod}: the connection closed before the command ended`,
                true,
              ),
            ),
          ),
        );
      })
      .catch((error: Error) =>
        finish(new PodExecError(`exec in pod ${pod}: ${error.message}`, true)),
      );
  });
}

/** A long-lived exec's streams: `stream` writes its stdin and ends with the command. */
export interface PodStream {
  readonly stream: Duplex;
  readonly stdout: PassThrough;
  readonly stderr: PassThrough;
}

/** What podStream uses of client-node's WebSocket (the `ws` package's). */
interface PodSocket {
  close(): void;
  pause(): void;
  resume(): void;
  readonly bufferedAmount: number;
}

/** Past this much unsent on the socket, writes wait: a pod that reads slowly is not buffered for. */
const SEND_HIGH_WATER = 1024 * 1024;

/**
 * A command that runs until closed (the socket tunnel), as a Duplex over the
 * exec's WebSocket. Its stdin is never ended (v4 would close the socket);
 * destroying the Duplex closes the socket, which ends the command. The
 * Duplex closes when the command ends or the connection is lost.
 */
export async function podStream(
  cluster: Cluster,
  pod: string,
  command: readonly string[],
  container: string,
): Promise<PodStream> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let socket: PodSocket | undefined;
  const stream = new Duplex({
    read() {},
    write(chunk: Buffer, _encoding, done) {
      stdin.write(chunk);
      // client-node sends each chunk at once: wait here while the socket holds too much.
      const wait = (): void => {
        if (!socket || socket.bufferedAmount < SEND_HIGH_WATER || stream.destroyed) done();
        else setTimeout(wait, 5);
      };
      wait();
    },
    destroy(error, done) {
      socket?.close();
      stdin.destroy();
      done(error);
    },
  });
  // The tunnel pauses this stream when a host socket is slow: what it reads is stdout, and
  // the WebSocket stops reading too, so the pod's writes wait rather than pile up here.
  stream.on('pause', () => {
    stdout.pause();
    socket?.pause();
  });
  stream.on('resume', () => {
    stdout.resume();
    socket?.resume();
  });
  const ended = (): void => {
    stdout.end();
    stream.destroy();
  };
  try {
    const ws = await new Exec(cluster.config).exec(
      cluster.namespace,
      pod,
      container,
      [...command],
      stdout,
      stderr,
      stdin,
      false,
      () => setImmediate(ended),
    );
    socket = ws as unknown as PodSocket;
    ws.on('close', () => setImmediate(ended));
    if (stream.destroyed) ws.close();
  } catch (error) {
    throw new PodExecError(`exec in pod ${pod}: ${(error as Error).message}`, true);
  }
  return { stream, stdout, stderr };
}
