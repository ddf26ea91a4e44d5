/**
 * The codebase a mining names on the command line, as an eval set would: a local path, or a
 * git URL with `--ref`. Resolved and placed in the codebase cache like any eval's, so its
 * history is read from the cache's entry: the resolved commit and what it reaches, nothing
 * later.
 */
import path from 'node:path';
import { InputError } from '../errors/index.js';
import {
  materializeCodebase,
  resolveCodebases,
  type CodebaseSource,
  type ResolvedCodebase,
} from '../source/index.js';

/** A URL (`scheme://…` or scp-like `user@host:path`), not a local path. */
const isUrl = (s: string): boolean =>
  /^[a-z][a-z0-9+.-]*:\/\//iu.test(s) || /^[^/]+@[^/]+:/u.test(s);

/** The source `codebase` and `ref` say; a URL with no ref, or a ref with a path, is refused. */
export function sourceOf(codebase: string, ref: string | undefined): CodebaseSource {
  if (isUrl(codebase)) {
    if (ref === undefined)
      throw new InputError(
        `${codebase} is a git URL: give --ref <branch, tag or full commit> (as an eval set's codebase has)`,
      );
    return { url: codebase, ref };
  }
  if (ref !== undefined)
    throw new InputError(
      `--ref goes with a git URL; ${codebase} is a local path, whose checked-out commit is read`,
    );
  return { path: codebase };
}

/** The resolved codebase and the cache entry (a bare repository) its history is read from. */
export async function placeCodebase(
  source: CodebaseSource,
  cwd: string = process.cwd(),
): Promise<{ resolved: ResolvedCodebase; gitDir: string }> {
  const [resolved] = await resolveCodebases([{ source, baseDir: path.resolve(cwd) }]);
  return { resolved: resolved!, gitDir: await materializeCodebase(resolved!) };
}
