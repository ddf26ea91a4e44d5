import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { ArtifactSchemaError, assertArtifact, type ArtifactKind } from '../artifacts/index.js';
import type { Read } from './result.js';

/** A JSON file of a campaign is a few MiB at most; a bigger one is not evalrig's. */
const MAX_JSON_BYTES = 64 * 1024 * 1024;

const broken = <T>(file: string, problem: string): Read<T> => ({
  status: 'broken',
  file,
  problem,
});

/**
 * Files up to this size are read with synchronous calls: open, fstat, read and close of a few
 * KiB take microseconds, where the promise API's round trips through the thread pool cost
 * ~0.2 ms a file; a campaign's listing reads several small files per run (10,000 runs: the
 * viewer's list). Bigger files are read without blocking.
 */
export const SYNC_READ_BYTES = 256 * 1024;

const FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

function openProblem<T>(file: string, error: unknown): Read<T> {
  const code = (error as NodeJS.ErrnoException).code;
  // ENOTDIR: a part of the path is a file, so there is no such file either (the folder's own
  // check names the file that stands where a folder should).
  if (code === 'ENOENT' || code === 'ENOTDIR') return { status: 'missing', file };
  if (code === 'ELOOP') return broken(file, `${file} is a link, not evalrig's file`);
  return broken(file, `cannot read ${file}: ${code ?? (error as Error).message}`);
}

/** The file's bytes when it is small (read through `fd` now), else undefined; checked first. */
function readSmall(file: string, fd: number, maxBytes: number): Read<Buffer> | undefined {
  const info = fstatSync(fd);
  if (!info.isFile()) return broken(file, `${file} is not a file`);
  if (info.size > maxBytes)
    return broken(file, `${file} is ${info.size} bytes: too big to be evalrig's`);
  if (info.size > SYNC_READ_BYTES) return undefined;
  // One byte more than its size: a file that grew since fstat is read whole up to the cap.
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const buf = Buffer.allocUnsafe(Math.max(info.size + 1, 4096));
    const n = readSync(fd, buf, 0, buf.length, null);
    if (n === 0) break;
    total += n;
    if (total > maxBytes)
      return broken(file, `${file} grew past ${maxBytes} bytes: too big to be evalrig's`);
    chunks.push(buf.subarray(0, n));
  }
  return { status: 'ok', file, value: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks) };
}

/**
 * A file's bytes, read once through one handle (no link followed), or why not: missing when
 * there is none, broken when it is not a regular file, too big, or unreadable.
 */
export async function readBytes(file: string, maxBytes = MAX_JSON_BYTES): Promise<Read<Buffer>> {
  let fd: number;
  try {
    fd = openSync(file, FLAGS);
  } catch (error) {
    return openProblem(file, error);
  }
  let small: Read<Buffer> | undefined;
  try {
    small = readSmall(file, fd, maxBytes);
  } catch (error) {
    return openProblem(file, error);
  } finally {
    closeSync(fd);
  }
  return small ?? readLarge(file, maxBytes);
}

/** A file over SYNC_READ_BYTES, read through the promise API (the event loop keeps turning). */
async function readLarge(file: string, maxBytes: number): Promise<Read<Buffer>> {
  let handle;
  try {
    handle = await open(file, FLAGS);
  } catch (error) {
    return openProblem(file, error);
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return broken(file, `${file} is not a file`);
    if (info.size > maxBytes)
      return broken(file, `${file} is ${info.size} bytes: too big to be evalrig's`);
    return { status: 'ok', file, value: await handle.readFile() };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return broken(file, `cannot read ${file}: ${code ?? (error as Error).message}`);
  } finally {
    await handle.close();
  }
}

/**
 * Checks parsed JSON against the schema of `kind`: the value, or the first problem at its
 * JSON pointer and how many more.
 */
export function checkArtifact<T>(kind: ArtifactKind, file: string, data: unknown): Read<T> {
  try {
    assertArtifact(kind, data, file);
  } catch (error) {
    if (!(error instanceof ArtifactSchemaError)) throw error;
    const [first, ...rest] = error.problems;
    const more = rest.length
      ? ` (and ${rest.length} more problem${rest.length === 1 ? '' : 's'})`
      : '';
    return broken(file, `${file} does not match the ${kind} schema at ${first ?? '/'}${more}`);
  }
  return { status: 'ok', file, value: data as T };
}

/** Parses bytes read from `file` as JSON and checks them against the schema of `kind`. */
export function parseArtifact<T>(kind: ArtifactKind, file: string, bytes: Buffer): Read<T> {
  let data: unknown;
  try {
    data = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    return broken(file, `${file} is not JSON: ${(error as Error).message}`);
  }
  return checkArtifact<T>(kind, file, data);
}

/**
 * Reads a JSON artifact of a campaign folder and checks it against its schema.
 *
 * @example
 * const read = await readJsonArtifact<ConditionsFile>('conditions', 'out/conditions.json');
 * if (read.status === 'ok') console.log(read.value.campaign);
 */
export async function readJsonArtifact<T>(kind: ArtifactKind, file: string): Promise<Read<T>> {
  const bytes = await readBytes(file);
  return bytes.status === 'ok' ? parseArtifact<T>(kind, file, bytes.value) : bytes;
}
