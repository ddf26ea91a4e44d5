/**
 * Host paths an eval set names for copying into an environment (an eval's
 * `files` and `files_root`, a condition's `stage` sources) stay inside the
 * eval set's folder, resolved for real: not absolute, no "..", no symbolic
 * link (the path's own or one inside a copied folder) that leads out of it.
 * Environments copy these paths following links, so a link out would copy
 * host files (keys, /etc/shadow) into a container.
 *
 * A codebase `{ "path" }` is not one of them: it names the code under test,
 * which may live anywhere on the host (see src/source).
 */
import type { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { clip, quote, type Problem } from './problems.js';

/** What a path must name: a file or a folder ('any'), a folder, or a regular file. */
export type HostPathKind = 'any' | 'folder' | 'file';

/** Entries of copied folders looked at before giving up (a copy that large is a mistake). */
export const MAX_WALKED_ENTRIES = 100_000;

/** The eval set's folder, as written and as resolved through links. */
export interface EvalSetFolder {
  readonly dir: string;
  readonly real: string;
}

/** The folder of an eval set, resolved once for every path check. */
export async function evalSetFolder(dir: string): Promise<EvalSetFolder> {
  try {
    return { dir, real: await realpath(dir) };
  } catch {
    return { dir, real: dir };
  }
}

/**
 * Why `written` (relative to `from`, a folder inside the eval set's folder)
 * does not name a path inside the eval set's folder, by its letters alone.
 */
export function whyLeavesEvalSetFolder(
  folder: EvalSetFolder,
  written: string,
  from = folder.dir,
): string | undefined {
  if (path.posix.isAbsolute(written) || path.win32.isAbsolute(written)) {
    return `is absolute (${quote(written)}); give a path relative to the eval set's folder`;
  }
  if (!isInside(folder.dir, path.resolve(from, written))) {
    return `climbs out of the eval set's folder (${quote(written)})`;
  }
  return undefined;
}

/**
 * Checks a host path the eval set copies: inside the folder by its letters,
 * existing, of the right kind, inside the folder once every link is followed,
 * and, for a folder, holding no link out, no broken link and nothing but
 * files, folders and links.
 *
 * @param at JSON pointer of the field.
 * @param options.prefix words before the reason ("source " for a stage key).
 * @param options.walk false: a folder whose content is not copied whole
 *   (files_root: only the listed files are), so its entries are not walked.
 */
export async function checkHostPath(
  folder: EvalSetFolder,
  at: string,
  written: string,
  options: { kind: HostPathKind; from?: string; prefix?: string; walk?: boolean },
): Promise<Problem | undefined> {
  const prefix = options.prefix ?? '';
  const problem = (why: string): Problem => ({ pointer: at, message: `${prefix}${why}` });
  const lexical = whyLeavesEvalSetFolder(folder, written, options.from);
  if (lexical) return problem(lexical);
  const resolved = path.resolve(options.from ?? folder.dir, written);
  // Shown cut: a path written 100,000 characters long must not make a message that long.
  const absolute = clip(resolved, 300);
  const noun = { any: 'file or folder', folder: 'folder', file: 'file' }[options.kind];
  let real: string;
  try {
    real = await realpath(resolved);
  } catch (error) {
    return problem(unreadable(error, absolute, noun));
  }
  if (!isInside(folder.real, real)) return problem(linkOut(clip(real, 300)));
  const info = await stat(real).catch(() => undefined);
  if (!info) return problem(`no such ${noun}: ${absolute}`);
  if (options.kind === 'folder' && !info.isDirectory()) return problem(`not a folder: ${absolute}`);
  if (options.kind === 'file' && !info.isFile()) return problem(`not a regular file: ${absolute}`);
  if (info.isDirectory()) {
    if (options.walk === false) return undefined;
    const inside = await whyFolderLeaks(folder, real);
    return inside ? problem(`${absolute} ${inside}`) : undefined;
  }
  if (!info.isFile()) return problem(`not a regular file or folder: ${absolute}`);
  return undefined;
}

/**
 * Why a folder that is copied following links would bring in something from
 * outside the eval set's folder (or hang, or fail): the first such entry.
 * Folders reached through links inside are walked too, each once.
 */
async function whyFolderLeaks(folder: EvalSetFolder, start: string): Promise<string | undefined> {
  const seen = new Set<string>([start]);
  const queue = [start];
  let walked = 0;
  while (queue.length > 0) {
    const dir = queue.shift()!;
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { recursive: true, withFileTypes: true });
    } catch (error) {
      return `cannot be read: ${(error as Error).message}`;
    }
    for (const entry of entries) {
      if (++walked > MAX_WALKED_ENTRIES) {
        return `holds more than ${MAX_WALKED_ENTRIES} entries; copy less`;
      }
      const full = path.join(entry.parentPath, entry.name);
      const shown = path.relative(start, full) || '.';
      if (entry.isFile() || entry.isDirectory()) continue;
      if (!entry.isSymbolicLink()) return `holds ${quote(shown)}, not a regular file or folder`;
      let real: string;
      try {
        real = await realpath(full);
      } catch {
        return `holds ${quote(shown)}, a broken symbolic link or a link loop`;
      }
      if (!isInside(folder.real, real)) return `holds ${quote(shown)}, ${linkOut(clip(real, 300))}`;
      const target = await stat(real).catch(() => undefined);
      if (target?.isDirectory() && !seen.has(real)) {
        seen.add(real);
        queue.push(real);
      } else if (target && !target.isFile() && !target.isDirectory()) {
        return `holds ${quote(shown)}, a link to something not a regular file or folder`;
      }
    }
  }
  return undefined;
}

function linkOut(real: string): string {
  return `a symbolic link that leads out of the eval set's folder (to ${real})`;
}

function unreadable(error: unknown, absolute: string, noun: string): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return `no such ${noun}: ${absolute}`;
  if (code === 'ELOOP') return `a symbolic link loop: ${absolute}`;
  return `cannot be read: ${absolute} (${code ?? (error as Error).message})`;
}

/** Whether `child` is `parent` or under it (both absolute and normalized). */
function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel));
}
