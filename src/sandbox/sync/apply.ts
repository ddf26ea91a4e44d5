/**
 * Applies a sandbox's delta (see listing.ts) to a host folder, safely: the
 * sandbox's names and bytes are the agent's, the host folder is the host's.
 *
 * - Every path is checked (relative, no `.`/`..`, no empty component) and
 *   every folder on the way is lstat'ed: a link already in the host folder is
 *   never followed (it is replaced when the sandbox now holds a folder there),
 *   so nothing is written or removed outside the host folder.
 * - Files are written to a fresh temporary name opened with O_EXCL|O_NOFOLLOW,
 *   then renamed over their place (a rename replaces a link, never follows it).
 * - The archive may only hold the regular files asked for, each once, each
 *   within its size cap and all within the total cap; anything else refuses
 *   the sync. Links are made from the listing's targets, as links.
 * - Modes keep the permission bits only (never setuid, setgid or sticky), plus
 *   the owner's read/write so the host can read and replace what it wrote.
 * - A file with holes comes as tar's sparse member and is written with its holes
 *   (sparse.ts): what it costs the host's disk is what it costs the sandbox's,
 *   and that is what the caps count.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import {
  chmod,
  lstat,
  mkdir,
  open,
  rename,
  rm,
  symlink,
  unlink,
  type FileHandle,
} from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { extract as tarExtract, type Header as Headers } from 'tar-stream';
import { SandboxFileError } from '../errors.js';
import type { SyncStats } from '../types.js';
import { isCleanRelative, type ListedEntry, type Listing, type ListingDelta } from './listing.js';
import { sparseMember, SparseFormatError, writeSparse } from './sparse.js';

export interface ApplyLimits {
  /** One file's cap (its size, holes included). */
  readonly maxFileBytes: number;
  /** What the files of one sync may take on the host's disk (holes take none). */
  readonly maxTotalBytes: number;
}

/** Opens the archive of `names` (relative paths); each entry named as asked (a leading `./` allowed). */
export type FetchFiles = (names: readonly string[]) => Promise<Readable>;

/** A refusal of what the sandbox sent: the sync stops, nothing outside the host folder was touched. */
function refused(root: string, detail: string): SandboxFileError {
  return new SandboxFileError(root, 'not-regular', detail);
}

/** Lstat, or undefined when nothing is there. */
async function lstatOrNone(p: string) {
  return lstat(p).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
}

/**
 * Checks that every folder from `root` down to the parent of `rel` is a real
 * folder (no link), creating missing ones. Returns the absolute path of `rel`.
 */
async function placeOf(root: string, rel: string, known: Set<string>): Promise<string> {
  if (!isCleanRelative(rel)) throw refused(root, `an entry named ${JSON.stringify(rel)}`);
  const parts = rel.split('/');
  let at = root;
  let relAt = '';
  for (const part of parts.slice(0, -1)) {
    at = path.join(at, part);
    relAt = relAt ? `${relAt}/${part}` : part;
    if (known.has(relAt)) continue;
    const info = await lstatOrNone(at);
    if (!info) await mkdir(at, { mode: 0o755 });
    else if (!info.isDirectory()) {
      // A link or file of an earlier sync where the sandbox now has a folder.
      await rm(at, { force: true });
      await mkdir(at, { mode: 0o755 });
    }
    known.add(relAt);
  }
  return path.join(root, ...parts);
}

/** Removes whatever is at `target` (a folder with what it holds), never through a link. */
async function clear(target: string): Promise<void> {
  const info = await lstatOrNone(target);
  if (!info) return;
  if (info.isDirectory()) await rm(target, { recursive: true, force: true });
  else await unlink(target);
}

/** Whether every parent of `rel` under `root` is a real folder (nothing to remove otherwise). */
async function parentsReal(root: string, rel: string): Promise<boolean> {
  let at = root;
  for (const part of rel.split('/').slice(0, -1)) {
    at = path.join(at, part);
    const info = await lstatOrNone(at);
    if (!info?.isDirectory()) return false;
  }
  return true;
}

/** Writes a file to `target` through a fresh temporary file renamed over it; `fill` writes it. */
async function writeEntry(
  target: string,
  mode: number,
  fill: (handle: FileHandle) => Promise<void>,
): Promise<void> {
  const temp = path.join(path.dirname(target), `.evalrig-sync-${randomBytes(6).toString('hex')}`);
  const handle = await open(
    temp,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    0o600,
  );
  try {
    await handle.chmod((mode & 0o777) | 0o600);
    await fill(handle);
    await handle.close();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(temp, { force: true });
    throw error;
  }
  const existing = await lstatOrNone(target);
  if (existing?.isDirectory()) await rm(target, { recursive: true, force: true });
  await rename(temp, target);
}

/**
 * What a listed file takes on the host's disk once synced: its size, or less when it has holes
 * (they are kept, see sparse.ts). A file that claims fewer blocks than it has data is written
 * as tar sends it, and counted again as its bytes come (fetchFiles).
 */
export function hostBytesOf(entry: ListedEntry): number {
  return Math.min(entry.size, entry.allocated);
}

/**
 * What the run's files take on the host in a synced tree: every regular file of `listing` that
 * is not as `baseline` (the tree as it went in, already on the host) had it.
 */
export function addedBytes(baseline: Listing, listing: Listing): number {
  let total = 0;
  for (const entry of listing.values()) {
    if (entry.type !== 'f' || baseline.get(entry.path)?.stamp === entry.stamp) continue;
    total += hostBytesOf(entry);
  }
  return total;
}

/**
 * Refuses a delta over the caps before anything is written: the host folder
 * still matches the previous listing afterwards.
 */
export function checkDelta(root: string, delta: ListingDelta, limits: ApplyLimits): void {
  let total = 0;
  for (const f of delta.files) {
    total += hostBytesOf(f);
    if (f.size > limits.maxFileBytes) {
      throw new SandboxFileError(
        path.join(root, f.path),
        'too-large',
        `${f.size} bytes, the cap is ${limits.maxFileBytes}`,
      );
    }
  }
  if (total > limits.maxTotalBytes) {
    throw new SandboxFileError(
      root,
      'too-large',
      `${total} bytes changed, ${limits.maxTotalBytes} may be written`,
    );
  }
}

/**
 * Makes `root` (an existing real folder of the host) hold what the delta says.
 * Files come from `fetch` as one archive.
 */
export async function applyDelta(
  root: string,
  delta: ListingDelta,
  fetch: FetchFiles,
  limits: ApplyLimits,
): Promise<SyncStats> {
  const rootInfo = await lstat(root);
  if (!rootInfo.isDirectory()) throw new Error(`${root} is not a folder of the host`);
  let changed = 0;
  let removed = 0;
  for (const rel of delta.removed) {
    if (!isCleanRelative(rel)) throw refused(root, `an entry named ${JSON.stringify(rel)}`);
    if (!(await parentsReal(root, rel))) continue;
    const target = path.join(root, ...rel.split('/'));
    if (await lstatOrNone(target)) {
      await clear(target);
      removed++;
    }
  }
  const known = new Set<string>();
  for (const folder of delta.folders) {
    const target = await placeOf(root, folder.path, known);
    const info = await lstatOrNone(target);
    if (info && !info.isDirectory()) await clear(target);
    const mode = folder.mode | 0o700;
    // A folder whose entries changed is not a change of its own: only made or re-moded ones count.
    if (info?.isDirectory() && (info.mode & 0o777) === mode) {
      known.add(folder.path);
      continue;
    }
    if (!info?.isDirectory()) await mkdir(target);
    await chmod(target, mode);
    known.add(folder.path);
    changed++;
  }
  for (const link of delta.links) {
    const target = await placeOf(root, link.path, known);
    await clear(target);
    await symlink(link.link, target);
    // The link may stand where a folder checked before was (a forged listing, a host folder
    // that folds case): every folder is checked again, never trusted through it.
    known.clear();
    changed++;
  }
  const bytes = await fetchFiles(root, delta.files, fetch, limits, known);
  changed += delta.files.length;
  return { changed, removed, bytes };
}

/** What one sync's archive entries have cost so far. */
interface Tally {
  /** Bytes of the archive's members (what crossed). */
  crossed: number;
  /** Bytes of data written on the host (holes not counted). */
  written: number;
}

/**
 * Writes one archive entry into the host folder: a file asked for, each once, a plain or a
 * sparse member, counted against the caps before a byte of it is written.
 */
async function writeArchiveEntry(
  header: Headers,
  stream: Readable,
  at: { root: string; wanted: Map<string, ListedEntry>; known: Set<string> },
  limits: ApplyLimits,
  tally: Tally,
): Promise<void> {
  const { root, wanted } = at;
  const sparse = sparseOf(root, header);
  const name = (sparse?.name ?? header.name).replace(/^\.\//u, '').replace(/\/$/u, '');
  const entry = wanted.get(name);
  if (!entry) throw refused(root, `an archive entry not asked for: ${JSON.stringify(name)}`);
  wanted.delete(name);
  if (header.type !== 'file' && header.type !== 'contiguous-file') {
    throw refused(
      root,
      `${JSON.stringify(name)} came back as a ${header.type ?? 'thing'}, not a file`,
    );
  }
  const size = header.size ?? 0;
  tally.crossed += size;
  // Counted before a byte is written: the file's size against its cap, its data against the sync's.
  const allow = (data: number): void => {
    tally.written += data;
    if ((sparse?.realSize ?? size) > limits.maxFileBytes || tally.written > limits.maxTotalBytes) {
      throw new SandboxFileError(
        path.join(root, name),
        'too-large',
        `the sync passed its cap of ${limits.maxTotalBytes} bytes`,
      );
    }
  };
  const target = await placeOf(root, name, at.known);
  await writeEntry(target, entry.mode, async (file) => {
    if (!sparse) {
      allow(size);
      // The stream closes the handle when done or failed (a second close does nothing).
      await pipeline(stream, file.createWriteStream());
      return;
    }
    await writeSparse(file, stream, size, sparse, allow).catch((error: unknown) => {
      if (error instanceof SparseFormatError) throw refused(root, `${name}: ${error.message}`);
      throw error;
    });
  });
}

async function fetchFiles(
  root: string,
  files: readonly ListedEntry[],
  fetch: FetchFiles,
  limits: ApplyLimits,
  known: Set<string>,
): Promise<number> {
  if (files.length === 0) return 0;
  const wanted = new Map(files.map((f) => [f.path, f]));
  checkDelta(root, { folders: [], links: [], files, removed: [] }, limits);
  const tally: Tally = { crossed: 0, written: 0 };
  const archive = await fetch([...wanted.keys()]);
  const extract = tarExtract();
  await new Promise<void>((resolve, reject) => {
    let failed = false;
    // The first refusal ends everything: the archive is dropped, nothing more is written.
    const fail = (error: unknown): void => {
      if (failed) return;
      failed = true;
      archive.destroy();
      extract.destroy();
      reject(error as Error);
    };
    extract.on('entry', (header, stream, next) => {
      if (failed) return;
      const at = { root, wanted, known };
      writeArchiveEntry(header, stream as unknown as Readable, at, limits, tally).then(
        () => next(),
        (error: unknown) => fail(error),
      );
    });
    extract.on('finish', () => {
      if (!failed) resolve();
    });
    extract.on('error', fail);
    archive.on('error', fail);
    archive.pipe(extract);
  });
  if (wanted.size > 0) {
    const first = [...wanted.keys()][0]!;
    throw refused(
      root,
      `${wanted.size} file(s) did not come back (first: ${JSON.stringify(first)})`,
    );
  }
  return tally.crossed;
}

/** A sparse member's name and size, or undefined for a plain file; a malformed one is refused. */
function sparseOf(root: string, header: Headers) {
  try {
    return sparseMember(header);
  } catch (error) {
    if (error instanceof SparseFormatError) throw refused(root, error.message);
    throw error;
  }
}
