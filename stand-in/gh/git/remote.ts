/** OWNER/REPO of the GitHub repository a remote stands for. */
export interface RepoName {
  owner: string;
  name: string;
}

/** What a remote URL says: its host (undefined for a local path) and OWNER/REPO. */
export interface RemoteUrl extends RepoName {
  host: string | undefined;
}

/**
 * Reads a remote URL: every form gh accepts (`https://`, `http://`, `git+https://`, `ssh://`,
 * `git+ssh://`, `git://`, scp-style `git@host:owner/repo.git`) and, since our runs push to a
 * local bare repository, a plain path or `file://` URL, of which the last two components are
 * taken (`/remote/acme/toy.git` -> acme/toy). A host URL needs a path of exactly OWNER/REPO,
 * as gh's `ghrepo.FromURL` does. Returns undefined otherwise.
 *
 * @example parseRemote('git@github.com:acme/toy.git') // { host: 'github.com', owner: 'acme', name: 'toy' }
 */
export function parseRemote(url: string): RemoteUrl | undefined {
  let p = url.trim();
  let host: string | undefined;
  const scheme = /^([a-z][a-z0-9+.-]*):\/\/([^/]*)(\/.*)?$/i.exec(p);
  if (scheme) {
    if ((scheme[1] ?? '').toLowerCase() !== 'file') {
      host = (scheme[2] ?? '').replace(/^[^@]*@/, '').replace(/:\d*$/, '');
    }
    p = scheme[3] ?? '';
  } else {
    const scp = /^(?:[^@/]+@)?([^/:]+):(?!\/)(.*)$/.exec(p);
    if (scp && !/^[A-Za-z]:[\\/]/.test(p)) {
      host = scp[1];
      p = scp[2] ?? '';
    }
  }
  const parts = p.split(/[\\/]+/).filter((s) => s !== '' && s !== '.');
  if (parts.length > 0) {
    const last = (parts[parts.length - 1] ?? '').replace(/\.git$/, '');
    if (last === '') parts.pop();
    else parts[parts.length - 1] = last;
  }
  if (parts.length < 2 || (host !== undefined && parts.length !== 2)) return undefined;
  return { host, owner: parts[parts.length - 2] ?? '', name: parts[parts.length - 1] ?? '' };
}

/** Reads OWNER/REPO from a remote URL (see {@link parseRemote}). */
export function parseRemoteUrl(url: string): RepoName | undefined {
  const r = parseRemote(url);
  return r ? { owner: r.owner, name: r.name } : undefined;
}

/**
 * Whether gh, logged in to github.com only, counts a remote as a GitHub one: its host
 * normalizes to github.com (`ssh.github.com`, `www.github.com`: go-gh's `NormalizeHostname`).
 * A local path counts too: that is where the runs' `origin` points, standing for GitHub.
 */
export function isKnownHost(r: RemoteUrl): boolean {
  if (r.host === undefined) return true;
  const h = r.host.toLowerCase();
  return h === 'github.com' || h.endsWith('.github.com');
}

/** gh's order of remotes (context/remote.go): upstream, github, origin, then the others. */
export function remoteSortScore(name: string): number {
  return { upstream: 3, github: 2, origin: 1 }[name.toLowerCase()] ?? 0;
}
