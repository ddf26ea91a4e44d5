/**
 * A command in a pod's container through the API server's exec (WebSocket,
 * protocol v4). v4 cannot half-close stdin, so input is framed by its length:
 * the command reads exactly that many bytes (`head -c N`) and never waits on
 * an end of file that would not come.
 */
import { Exec, type V1Status } from '@kubernetes/client-node';
import { PassThrough, Writable } from 'node:stream';
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

/** The exec's own failure (not the command's exit code): names the pod. */
export class PodExecError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PodExecError';
  }
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
    stdin.write(options.input);
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
              ),
            ),
          ),
        );
      })
      .catch((error: Error) => finish(new PodExecError(`exec in pod ${pod}: ${error.message}`)));
  });
}
