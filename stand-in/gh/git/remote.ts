/** OWNER/REPO of the GitHub repository a remote stands for. */
export interface RepoName {
  owner: string;
  name: string;
}

/**
 * Reads OWNER/REPO from a remote URL: every form gh accepts (`https://`, `http://`,
 * `git+https://`, `ssh://`, `git+ssh://`, `git://`, scp-style `git@host:owner/repo.git`) and,
 * since our runs push to a local bare repository, a plain path or `file://` URL, of which the
 * last two components are taken (`/remote/acme/toy.git` -> acme/toy). Returns undefined when
 * fewer than two components are there.
 *
 * @example parseRemoteUrl('git@github.com:acme/toy.git') // { owner: 'acme', name: 'toy' }
 */
export function parseRemoteUrl(url: string): RepoName | undefined {
  let p = url.trim();
  const scheme = /^([a-z][a-z0-9+.-]*):\/\/[^/]*(\/.*)?$/i.exec(p);
  if (scheme) p = scheme[2] ?? '';
  else {
    const scp = /^(?:[^@/]+@)?[^/:]+:(?!\/)(.*)$/.exec(p);
    if (scp && !/^[A-Za-z]:[\\/]/.test(p)) p = scp[1] ?? '';
  }
  const parts = p.split(/[\\/]+/).filter((s) => s !== '' && s !== '.');
  if (parts.length > 0) {
    const last = (parts[parts.length - 1] ?? '').replace(/\.git$/, '');
    if (last === '') parts.pop();
    else parts[parts.length - 1] = last;
  }
  if (parts.length < 2) return undefined;
  return { owner: parts[parts.length - 2] ?? '', name: parts[parts.length - 1] ?? '' };
}
