/**
 * The file inputs of a campaign's runs, each by the sha256 of its bytes: what a condition
 * stages and an eval places (file by file, as placing them copies them), and every other file
 * of the eval set folder, which each run sees mounted read only (the scripted agent's script
 * lives there).
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, readdir, readlink, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { StagedPath } from '../../config/index.js';
import { filesUnder } from '../../workspace/index.js';
import { sha256Of } from './fingerprint.js';

/** A file's sha256, read as a stream (a staged folder may hold large files). */
export async function fileSha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * Each file placed from `paths` by its key (`prefix` and its path in the work tree), with its
 * sha256: a folder file by file, following links as placing it does.
 *
 * @example
 * await placedHashes([{ from: '/set/skills/tdd', to: '.claude/skills/tdd' }], 'stage:')
 * // { 'stage:.claude/skills/tdd/SKILL.md': '9f86d0…' }
 */
export async function placedHashes(
  paths: readonly StagedPath[],
  prefix: string,
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const { from, to } of paths) {
    if ((await stat(from)).isDirectory()) {
      for (const rel of await filesUnder(from)) {
        const target = to ? `${to}/${rel}` : rel;
        out[`${prefix}${target}`] = await fileSha256(path.join(from, rel));
      }
    } else {
      out[`${prefix}${to}`] = await fileSha256(from);
    }
  }
  return out;
}

/** How much of the eval set folder is fingerprinted, file by file. */
export const FOLDER_CAPS = { files: 1000, bytes: 256 * 1024 * 1024 } as const;

/** The eval set folder's other files by their path there, or why they could not be taken. */
export type FolderHashes =
  | { readonly ok: true; readonly files: Readonly<Record<string, string>> }
  | { readonly ok: false; readonly why: string };

export interface FolderExclusions {
  /** Files with inputs of their own (evals.json, staged and placed files, model scripts). */
  readonly files: readonly string[];
  /** Folders left out whole: staged folders, the campaign folders (--out, --reuse). */
  readonly folders: readonly string[];
}

/**
 * Every file of the eval set folder `dir` but the excluded ones, by its path there, with its
 * sha256; a link by its target (the run sees the link, not what it names). Git's own folder is
 * left out (it changes with every commit), and so is any campaign folder (it holds a
 * conditions.json): what a campaign writes is no input of its runs. Nothing is followed.
 */
export async function folderHashes(dir: string, exclude: FolderExclusions): Promise<FolderHashes> {
  const root = await real(dir);
  const skipFiles = new Set(await Promise.all(exclude.files.map(real)));
  const skipFolders = new Set(await Promise.all(exclude.folders.map(real)));
  const files: Record<string, string> = {};
  let count = 0;
  let bytes = 0;
  const walk = async (rel: string): Promise<string | undefined> => {
    const abs = path.join(root, rel);
    if (skipFolders.has(abs)) return undefined;
    const entries = await readdir(abs, { withFileTypes: true });
    if (rel !== '' && entries.some((e) => e.name === 'conditions.json' && e.isFile()))
      return undefined;
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const child = rel === '' ? e.name : `${rel}/${e.name}`;
      const full = path.join(root, child);
      if (e.isDirectory()) {
        if (e.name === '.git') continue;
        const why = await walk(child);
        if (why) return why;
        continue;
      }
      if (skipFiles.has(full) || skipFolders.has(full)) continue;
      if (!e.isFile() && !e.isSymbolicLink()) continue;
      if (++count > FOLDER_CAPS.files)
        return `the eval set folder holds more than ${FOLDER_CAPS.files} files besides the staged ones`;
      if (e.isSymbolicLink()) {
        files[child] = sha256Of(`link:${await readlink(full)}`);
        continue;
      }
      bytes += (await lstat(full)).size;
      if (bytes > FOLDER_CAPS.bytes)
        return `the eval set folder holds more than ${FOLDER_CAPS.bytes / 1024 / 1024} MiB besides the staged files`;
      files[child] = await fileSha256(full);
    }
    return undefined;
  };
  const why = await walk('');
  return why ? { ok: false, why } : { ok: true, files };
}

/**
 * A path as the file system names its folder (links on the way resolved), its own name kept:
 * a staged link is left out as the link, found where the walk meets it.
 */
async function real(p: string): Promise<string> {
  const abs = path.resolve(p);
  const folder = await realpath(path.dirname(abs)).catch(() => path.dirname(abs));
  return path.join(folder, path.basename(abs));
}
