import { lstat, unlink } from 'node:fs/promises';
import { connect } from 'node:net';
import path from 'node:path';
import { EvalrigError } from '../errors/index.js';

/**
 * The socket's folder must be a real folder; a socket left there by an earlier server is
 * removed. A socket a server still listens on is refused (its path is not taken from it), and
 * so is anything else (never removed).
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
  if (await answers(socketPath)) {
    throw new EvalrigError(`${what}: a server still listens on ${socketPath}`);
  }
  await unlink(socketPath);
}

/** Whether a server accepts connections on the socket (one left behind refuses them at once). */
function answers(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = connect(socketPath);
    const done = (live: boolean): void => {
      probe.destroy();
      resolve(live);
    };
    probe.once('connect', () => done(true));
    probe.once('error', (e: NodeJS.ErrnoException) =>
      done(e.code !== 'ECONNREFUSED' && e.code !== 'ENOENT'),
    );
  });
}
