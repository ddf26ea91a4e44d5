/**
 * What the host's Unix-socket servers (the model gateway, the gh recorder) share: checking
 * their bounds and socket path, and making room for the socket. `what` names the server in
 * every message.
 *
 * ```ts
 * checkServerOptions('gh recorder', options, ['maxCalls', 'maxConnections']);
 * await makeSocketRoom('gh recorder', options.socketPath);
 * ```
 */
import { lstat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { EvalrigError } from '../errors/index.js';

/** Each of `bounds` is a positive integer and the socket path is absolute, or a clear error. */
export function checkServerOptions<K extends string>(
  what: string,
  options: { readonly socketPath: string } & Readonly<Record<K, number>>,
  bounds: readonly K[],
): void {
  for (const key of bounds) {
    const value = options[key];
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new EvalrigError(`${what}: ${key} must be a positive integer, not ${value}`);
    }
  }
  if (!path.isAbsolute(options.socketPath)) {
    throw new EvalrigError(`${what}: the socket path ${options.socketPath} is not absolute`);
  }
}

/**
 * The socket's folder must be a real folder; a socket left there by an earlier server is
 * removed, anything else is an error (never removed).
 */
export async function makeSocketRoom(what: string, socketPath: string): Promise<void> {
  const folder = path.dirname(socketPath);
  const st = await lstat(folder).catch(() => undefined);
  if (!st?.isDirectory()) {
    throw new EvalrigError(`${what}: the socket folder ${folder} is not a folder`);
  }
  const existing = await lstat(socketPath).catch(() => undefined);
  if (!existing) return;
  if (!existing.isSocket()) {
    throw new EvalrigError(`${what}: ${socketPath} exists and is not a socket`);
  }
  await unlink(socketPath);
}
