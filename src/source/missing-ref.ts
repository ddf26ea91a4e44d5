import { isAbsolute } from 'node:path';
import { listRemote, normalizeUrl, pickRef, type RemoteRefs } from './remote.js';
import { isFullCommit, isShortCommitHash } from './ref.js';
import type { CodebaseSource } from './types.js';

/** At most this many branches (and as many tags) are named in a message; the rest are counted. */
const NAMED = 20;

function named(kind: string, names: readonly string[]): string {
  if (names.length === 0) return `no ${kind}`;
  const shown = names.slice(0, NAMED).join(', ');
  return `${kind}: ${shown}${names.length > NAMED ? ` and ${names.length - NAMED} more` : ''}`;
}

/**
 * The sentence for a ref a repository does not have: what it has instead, its branches and
 * its tags, so the fix is in the message.
 *
 * @example
 * noSuchRef('nope', '/src/toy', refs); // 'no branch or tag "nope" in /src/toy (branches: main, feature; tags: v1.0)'
 */
export function noSuchRef(ref: string, url: string, remote: RemoteRefs): string {
  const under = (prefix: string) =>
    [...remote.refs.keys()]
      .filter((name) => name.startsWith(prefix))
      .map((name) => name.slice(prefix.length))
      .sort();
  const branches = under('refs/heads/');
  const tags = under('refs/tags/');
  return `no branch or tag "${ref}" in ${url} (${named('branches', branches)}; ${named('tags', tags)})`;
}

/**
 * Whether a git source on this machine (a path, or a file: URL) lacks its ref, read with one
 * local `git ls-remote`: the sentence saying so and what the repository has, else undefined.
 * A remote URL is not asked (validation reaches no network; `run` resolves it), nor a full
 * commit hash (only a fetch can tell), nor a source that cannot be read (`run` says why).
 */
export async function missingLocalRef(
  source: { readonly url: string; readonly ref: string },
  baseDir: string,
): Promise<string | undefined> {
  const { ref } = source;
  if (!ref || isFullCommit(ref) || isShortCommitHash(ref)) return undefined;
  const url = normalizeUrl(source.url, baseDir);
  const local = url.startsWith('file://') || (!url.includes('://') && isAbsolute(url));
  if (!local) return undefined;
  let remote: RemoteRefs;
  try {
    remote = await listRemote(url, baseDir);
  } catch {
    return undefined;
  }
  return pickRef(remote, ref) ? undefined : noSuchRef(ref, url, remote);
}

/** A codebase as an eval declares it, with where evals.json says so (a JSON pointer). */
export interface DeclaredCodebase {
  readonly source: CodebaseSource;
  readonly baseDir: string;
  readonly pointer?: string;
}

/**
 * The refs missing from the git sources on this machine, each at its JSON pointer's `ref`
 * (one per declaration, however many evals share it): what `evalrig validate` can tell
 * without the network.
 */
export async function missingLocalRefs(
  codebases: readonly DeclaredCodebase[],
): Promise<{ pointer: string; message: string }[]> {
  const seen = new Map<string, DeclaredCodebase>();
  for (const c of codebases) if ('url' in c.source) seen.set(c.pointer ?? '/codebase', c);
  const found = await Promise.all(
    [...seen].map(async ([pointer, c]) => {
      const message = await missingLocalRef(c.source as { url: string; ref: string }, c.baseDir);
      return message === undefined ? [] : [{ pointer: `${pointer}/ref`, message }];
    }),
  );
  return found.flat();
}
