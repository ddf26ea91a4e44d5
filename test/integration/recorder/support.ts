/**
 * What the recorder's tests share: a fresh socket folder per test, a raw client that speaks
 * (or garbles) the protocol, and a valid call to forge from.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { GhCall } from '../../../src/artifacts/index.js';
import { startGhRecorder, type GhRecorder } from '../../../src/recorder/index.js';

/** A recorder listening in a temporary folder, removed by `stop`. */
export async function tempRecorder(
  options: { maxMessageBytes?: number; maxCalls?: number; connectionTimeoutMs?: number } = {},
): Promise<{ recorder: GhRecorder; folder: string; stop: () => Promise<void> }> {
  const folder = await mkdtemp(path.join(tmpdir(), 'gh-recorder-test-'));
  const recorder = await startGhRecorder({
    socketPath: path.join(folder, 'gh.sock'),
    maxMessageBytes: options.maxMessageBytes ?? 1 << 20,
    maxCalls: options.maxCalls ?? 1000,
    ...(options.connectionTimeoutMs ? { connectionTimeoutMs: options.connectionTimeoutMs } : {}),
  });
  return {
    recorder,
    folder,
    stop: async () => {
      await recorder.close();
      await rm(folder, { recursive: true, force: true });
    },
  };
}

/** What a raw client saw: the acknowledgement line (when any) and whether the host hung up. */
export interface Exchange {
  ack: { ok: boolean; seq?: number; problem?: string } | null;
  closedByHost: boolean;
}

/**
 * Connects, writes `bytes` (in one write, or in `pieces` writes), and waits for the host to
 * answer or hang up.
 */
export function exchange(socketPath: string, bytes: string | Buffer): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ path: socketPath });
    let text = '';
    socket.on('connect', () => socket.write(bytes));
    socket.on('data', (d: Buffer) => (text += d.toString('utf8')));
    socket.on('error', (e: NodeJS.ErrnoException) => {
      // The host dropping a connection mid-write resets it: that is an answer too.
      if (e.code !== 'EPIPE' && e.code !== 'ECONNRESET') reject(e);
    });
    socket.on('close', () => {
      const line = text.split('\n')[0];
      resolve({
        ack: line ? (JSON.parse(line) as Exchange['ack']) : null,
        closedByHost: true,
      });
    });
  });
}

/** A message as the stand-in sends it. */
export function message(call: unknown, state: unknown = null): string {
  return `${JSON.stringify({ v: 1, call, state })}\n`;
}

/** A valid call line with the given seq. */
export function validCall(seq: number, over: Partial<GhCall> = {}): GhCall {
  return {
    seq,
    time: '2026-11-29T19:00:00Z',
    argv: ['pr', 'list'],
    cwd: '/work/toy',
    command: 'pr list',
    stdin: null,
    description: null,
    exit_code: 0,
    stdout: '',
    stderr: '',
    played: true,
    marks_ready: false,
    pr: null,
    ...over,
  };
}
