/**
 * A tree as listed inside a sandbox, and what changed between two listings.
 *
 * The listing is GNU find's `-printf` with NUL after every field, run with `-P`
 * (no link is followed, the starting point included) by the harness's user:
 * names are the agent's (any byte but `/` and NUL, newlines included), so the
 * format never relies on anything a name cannot hold. The parser treats the
 * bytes as untrusted: a record that does not parse, a name that is not UTF-8
 * or holds `.`/`..` components, or more entries than the cap refuses the
 * whole listing.
 */
import { SandboxFileError } from '../errors.js';

/** The `find` arguments that print one record per entry (root first, as `.`-less empty path). */
export const LISTING_FORMAT = '%y\\0%P\\0%s\\0%T@\\0%C@\\0%i\\0%m\\0%l\\0%b\\0';
const FIELDS = 9;

/** What a listing says of one entry. `type`: f file, d folder, l link, anything else kept as is. */
export interface ListedEntry {
  readonly type: string;
  /** Relative to the listed root, `/`-separated; '' is the root. */
  readonly path: string;
  readonly size: number;
  /** Permission bits (no setuid/setgid/sticky: the host never makes those). */
  readonly mode: number;
  /** The link's target, for links; '' otherwise. */
  readonly link: string;
  /** Bytes of disk the entry takes (its 512-byte blocks): less than `size` for a file with holes. */
  readonly allocated: number;
  /** Everything that says the entry changed (size, mtime, ctime, inode, mode, target). */
  readonly stamp: string;
}

export type Listing = ReadonlyMap<string, ListedEntry>;

export interface ListingLimits {
  readonly maxEntries: number;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** True for a relative, `/`-separated path with no empty, `.` or `..` component. */
export function isCleanRelative(p: string): boolean {
  if (p === '' || p.startsWith('/') || p.includes('\0')) return false;
  return p.split('/').every((c) => c !== '' && c !== '.' && c !== '..');
}

/**
 * Parses find's output for `root` (the container path, for messages). The
 * first record must be the root itself, a folder.
 */
export function parseListing(root: string, bytes: Buffer, limits: ListingLimits): Listing {
  const entries = new Map<string, ListedEntry>();
  let at = 0;
  const field = (): Buffer => {
    const end = bytes.indexOf(0, at);
    if (end < 0) throw new SandboxFileError(root, 'not-regular', 'the listing is cut short');
    const out = bytes.subarray(at, end);
    at = end + 1;
    return out;
  };
  let first = true;
  while (at < bytes.length) {
    const raw: Buffer[] = [];
    for (let i = 0; i < FIELDS; i++) raw.push(field());
    const [type, name, size, mtime, ctime, inode, mode, link, blocks] = raw.map((b, i) => {
      try {
        return utf8.decode(b);
      } catch {
        throw new SandboxFileError(
          root,
          'not-regular',
          `${i === 1 ? 'a name' : 'a link target'} that is not UTF-8 (${JSON.stringify(b.toString('latin1').slice(0, 80))})`,
        );
      }
    }) as [string, string, string, string, string, string, string, string, string];
    if (first) {
      if (name !== '' || type !== 'd') {
        throw new SandboxFileError(root, 'not-regular', 'the folder is no longer a folder');
      }
      first = false;
      continue;
    }
    if (!isCleanRelative(name)) {
      throw new SandboxFileError(root, 'not-regular', `an entry named ${JSON.stringify(name)}`);
    }
    if (!/^\d+$/u.test(size) || !/^[0-7]+$/u.test(mode) || !/^\d+$/u.test(blocks)) {
      throw new SandboxFileError(
        root,
        'not-regular',
        `a record that does not parse at ${JSON.stringify(name)}`,
      );
    }
    if (entries.size >= limits.maxEntries) {
      throw new SandboxFileError(root, 'too-large', `more than ${limits.maxEntries} entries`);
    }
    const bits = parseInt(mode, 8) & 0o777;
    entries.set(name, {
      type,
      path: name,
      size: Number(size),
      mode: bits,
      link: type === 'l' ? link : '',
      allocated: Number(blocks) * 512,
      stamp: `${type}|${size}|${mtime}|${ctime}|${inode}|${bits}|${link}`,
    });
  }
  if (first) throw new SandboxFileError(root, 'missing');
  return entries;
}

/** What a sync must do to turn the host's copy of `before` into `after`. */
export interface ListingDelta {
  /** Folders to make (or to re-mode), parents first. */
  readonly folders: readonly ListedEntry[];
  readonly links: readonly ListedEntry[];
  /** Regular files to fetch. */
  readonly files: readonly ListedEntry[];
  /** Paths to remove (gone, or no longer kept: FIFOs, sockets, devices), deepest first. */
  readonly removed: readonly string[];
}

const depth = (p: string): number => p.split('/').length;

/** Compares two listings. Entries of other types than file, folder and link are never copied. */
export function diffListings(before: Listing, after: Listing): ListingDelta {
  const folders: ListedEntry[] = [];
  const links: ListedEntry[] = [];
  const files: ListedEntry[] = [];
  const removed: string[] = [];
  for (const entry of after.values()) {
    const old = before.get(entry.path);
    if (old && old.stamp === entry.stamp) continue;
    if (old && old.type !== entry.type) removed.push(entry.path);
    if (entry.type === 'd') folders.push(entry);
    else if (entry.type === 'l') links.push(entry);
    else if (entry.type === 'f') files.push(entry);
  }
  for (const old of before.values()) {
    if (!after.has(old.path)) removed.push(old.path);
  }
  folders.sort((a, b) => depth(a.path) - depth(b.path));
  removed.sort((a, b) => depth(b) - depth(a));
  return { folders, links, files, removed };
}
