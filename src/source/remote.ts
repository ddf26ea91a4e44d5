import { isAbsolute, resolve } from 'node:path';
import { runGit } from '../git/index.js';
import { gitReason } from './reason.js';

/** What one `git ls-remote --symref` says about a repository. */
export interface RemoteRefs {
  /** Branch HEAD points at, when the server says (e.g. 'main'). */
  defaultBranch?: string;
  /** Full ref name -> commit; tags are peeled (`refs/tags/v1` -> the commit it names). */
  refs: Map<string, string>;
}

/**
 * Makes a local-path URL absolute (relative to `baseDir`); leaves URLs with a
 * scheme and scp-like `host:path` addresses alone.
 */
export function normalizeUrl(url: string, baseDir: string): string {
  if (url.includes('://')) return url;
  // git reads `host:path` (a colon before any slash) as ssh.
  if (/^[^/]*:/.test(url) && !isAbsolute(url)) return url;
  return resolve(baseDir, url);
}

/** Lists a repository's refs: one `git ls-remote` per call. Rejects with git's message on failure. */
export async function listRemote(url: string, cwd: string): Promise<RemoteRefs> {
  const result = await runGit(['ls-remote', '--symref', '--', url], {
    cwd,
    reject: false,
    transport: 'any',
  });
  if (result.exitCode !== 0) {
    throw new Error(gitReason(result.stderr) || `git ls-remote exited ${result.exitCode}`);
  }
  const refs = new Map<string, string>();
  const peeled = new Map<string, string>();
  let defaultBranch: string | undefined;
  for (const line of result.stdout.split('\n')) {
    const [left, name] = line.split('\t');
    if (left === undefined || name === undefined) continue;
    if (left.startsWith('ref: ')) {
      if (name === 'HEAD') defaultBranch = left.slice('ref: refs/heads/'.length);
      continue;
    }
    if (name.endsWith('^{}')) peeled.set(name.slice(0, -3), left);
    else refs.set(name, left);
  }
  for (const [name, commit] of peeled) refs.set(name, commit);
  return defaultBranch === undefined ? { refs } : { refs, defaultBranch };
}

/**
 * Finds the commit a declared ref names among a remote's refs, the way git
 * reads a name: `refs/<ref>`, `refs/tags/<ref>`, `refs/heads/<ref>`. Returns
 * the branch to start on: the ref when it is a branch, else the default branch.
 */
export function pickRef(
  remote: RemoteRefs,
  ref: string,
): { commit: string; branch: string } | undefined {
  const fallback = remote.defaultBranch ?? 'main';
  if (ref === 'HEAD') {
    const commit = remote.refs.get('HEAD');
    return commit === undefined ? undefined : { commit, branch: fallback };
  }
  for (const name of [ref, `refs/${ref}`, `refs/tags/${ref}`, `refs/heads/${ref}`]) {
    const commit = remote.refs.get(name);
    if (commit === undefined || !name.startsWith('refs/')) continue;
    const branch = name.startsWith('refs/heads/') ? name.slice('refs/heads/'.length) : fallback;
    return { commit, branch };
  }
  return undefined;
}
