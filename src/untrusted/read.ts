import { constants } from 'node:fs';
import { lstat, open } from 'node:fs/promises';
import path from 'node:path';
import { EvalrigError } from '../errors/index.js';

/**
 * A file the agent could write is not what it must be: a symbolic link, a
 * FIFO, a folder, larger than its cap, under a path that is not a chain of
 * real folders. The message names the file and what is wrong with it.
 */
export class UntrustedFileError extends EvalrigError {
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`${file}: ${reason}`);
  }
}

export interface UntrustedReadOptions {
  /** Files larger than this are refused (bytes). */
  readonly maxBytes: number;
}

// O_NOFOLLOW: a link in the last place is refused by the kernel, not followed.
// O_NONBLOCK: a FIFO put there cannot hang the open.
const FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * Checks that every folder from `root` (trusted, made by evalrig) down to the
 * parent of `root/relative` is a real folder, not a link. Returns false when
 * one of them does not exist. The run's processes are stopped before anything
 * is read, so nothing changes between this check and the read.
 */
async function realFolders(root: string, relative: string): Promise<boolean> {
  const parts = relative.split('/').slice(0, -1);
  let at = root;
  for (const part of parts) {
    at = path.join(at, part);
    let info;
    try {
      info = await lstat(at);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw new UntrustedFileError(at, `cannot be read (${(error as Error).message})`);
    }
    if (info.isSymbolicLink()) throw new UntrustedFileError(at, 'is a symbolic link');
    if (!info.isDirectory()) throw new UntrustedFileError(at, 'is not a folder');
  }
  return true;
}

/**
 * Reads `root/relative` (forward slashes) as untrusted data: only a regular
 * file, reached through real folders, opened without following a link and
 * without blocking, and at most `maxBytes` long. Returns undefined when it
 * does not exist.
 *
 * @example
 * const text = await readUntrustedFile(gitDir, 'gh-stand-in/calls.jsonl', { maxBytes: 8 << 20 });
 */
export async function readUntrustedFile(
  root: string,
  relative: string,
  options: UntrustedReadOptions,
): Promise<Buffer | undefined> {
  const file = path.join(root, relative);
  if (!(await realFolders(root, relative))) return undefined;
  let handle;
  try {
    handle = await open(file, FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP') throw new UntrustedFileError(file, 'is a symbolic link');
    throw new UntrustedFileError(file, `cannot be opened (${code ?? (error as Error).message})`);
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new UntrustedFileError(file, 'is not a regular file');
    if (info.size > options.maxBytes) {
      throw new UntrustedFileError(
        file,
        `is ${info.size} bytes, more than the ${options.maxBytes} allowed`,
      );
    }
    // Read one byte past the cap: a file that grew since fstat is refused too.
    const buffer = Buffer.alloc(Math.min(info.size, options.maxBytes) + 1);
    let filled = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
      if (filled === buffer.length) break;
    }
    if (filled > options.maxBytes) {
      throw new UntrustedFileError(file, `is more than the ${options.maxBytes} bytes allowed`);
    }
    return buffer.subarray(0, filled);
  } finally {
    await handle.close();
  }
}

/** {@link readUntrustedFile} as UTF-8 text. */
export async function readUntrustedText(
  root: string,
  relative: string,
  options: UntrustedReadOptions,
): Promise<string | undefined> {
  const bytes = await readUntrustedFile(root, relative, options);
  return bytes?.toString('utf8');
}

/**
 * Checks that `root/relative` is a real folder (not a link), reached through
 * real folders. Returns false when it does not exist.
 */
export async function isRealFolder(root: string, relative: string): Promise<boolean> {
  if (!(await realFolders(root, `${relative}/x`))) return false;
  return true;
}
