import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { whyNotBranchName } from '../config/index.js';
import { UntrustedFileError, readUntrustedText } from './read.js';

/**
 * A repository the agent could write, read as files: HEAD, loose refs and
 * packed-refs are parsed as data and validated (object ids, branch names);
 * no git process ever runs with its config.
 */

const OBJECT_ID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/u;
/** HEAD and a loose ref are one short line; packed-refs may be long. */
const REF_FILE_BYTES = 4096;
const PACKED_REFS_BYTES = 64 * 1024 * 1024;

export interface HeadState {
  /** The branch HEAD points at, or null when detached. */
  readonly branch: string | null;
  /** HEAD's commit, or null on an unborn branch. */
  readonly head: string | null;
}

function checkBranch(gitDir: string, name: string): string {
  const why = whyNotBranchName(name);
  if (why !== undefined) {
    throw new UntrustedFileError(path.join(gitDir, 'HEAD'), `names a bad branch (${why})`);
  }
  return name;
}

/** The object id `ref` (e.g. `refs/heads/main`) points at, or null when it does not exist. */
export async function readRef(gitDir: string, ref: string): Promise<string | null> {
  const loose = await readUntrustedText(gitDir, ref, { maxBytes: REF_FILE_BYTES });
  if (loose !== undefined) {
    const id = loose.trim();
    if (!OBJECT_ID.test(id))
      throw new UntrustedFileError(path.join(gitDir, ref), 'is not an object id');
    return id;
  }
  const packed = await readUntrustedText(gitDir, 'packed-refs', { maxBytes: PACKED_REFS_BYTES });
  if (packed === undefined) return null;
  for (const line of packed.split('\n')) {
    if (line.startsWith('#') || line.startsWith('^')) continue;
    const space = line.indexOf(' ');
    if (space < 0 || line.slice(space + 1) !== ref) continue;
    const id = line.slice(0, space);
    if (!OBJECT_ID.test(id)) {
      throw new UntrustedFileError(path.join(gitDir, 'packed-refs'), `holds a bad id for ${ref}`);
    }
    return id;
  }
  return null;
}

/**
 * HEAD's branch and commit, read from the files of `gitDir` (which must be a
 * real folder). A HEAD that is neither `ref: refs/heads/<branch>` nor an object
 * id is refused: git would call the repository broken too.
 */
export async function readHead(gitDir: string): Promise<HeadState> {
  const text = await readUntrustedText(gitDir, 'HEAD', { maxBytes: REF_FILE_BYTES });
  if (text === undefined) throw new UntrustedFileError(path.join(gitDir, 'HEAD'), 'is missing');
  const line = text.trim();
  if (OBJECT_ID.test(line)) return { branch: null, head: line };
  const match = /^ref: refs\/heads\/(.+)$/u.exec(line);
  if (!match?.[1]) {
    throw new UntrustedFileError(path.join(gitDir, 'HEAD'), 'is neither a branch nor a commit');
  }
  const branch = checkBranch(gitDir, match[1]);
  return { branch, head: await readRef(gitDir, `refs/heads/${branch}`) };
}

/**
 * Checks an object folder before git reads it as an alternate: a real folder
 * of real folders and regular files only (no link to elsewhere on the host,
 * no FIFO to hang on), and no alternates of its own (git would follow them).
 */
export async function checkObjectFolder(objects: string): Promise<void> {
  const top = await lstat(objects).catch(() => undefined);
  if (!top?.isDirectory()) throw new UntrustedFileError(objects, 'is not a folder');
  const entries = await readdir(objects, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    if (entry.isFile() || entry.isDirectory()) continue;
    const where = path.join(entry.parentPath, entry.name);
    throw new UntrustedFileError(where, 'is neither a regular file nor a folder');
  }
  for (const nested of ['info/alternates', 'info/http-alternates']) {
    if (await lstat(path.join(objects, nested)).catch(() => undefined)) {
      throw new UntrustedFileError(
        path.join(objects, nested),
        'is not allowed (nested alternates)',
      );
    }
  }
}
