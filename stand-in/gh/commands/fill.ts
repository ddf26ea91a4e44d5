/**
 * `pr create --fill`, `--fill-first`, `--fill-verbose`: the title and body gh composes from the
 * commits between the base's remote-tracking branch and the head (pkg/cmd/pr/create/create.go
 * `initDefaultTitleBody`, git/client.go `Commits`).
 */
import { GhError } from '../errors.js';
import type { RepoContext } from '../git/index.js';

/** One commit as gh reads it: its subject and raw body. */
interface Commit {
  title: string;
  body: string;
}

// git/client.go commitLogRE; NUL separates the fields, as in gh's --pretty format.
// eslint-disable-next-line no-control-regex -- NUL is the separator gh asks git for
const COMMIT_LOG = /^[0-9a-fA-F]{7,40}\x00.*?\x00[\s\S]*?\x00$/gm;

/**
 * The commits of `base...head` newest first, as gh's `git log --cherry` reads them.
 * @throws GhError worded as gh words a failure to compute the defaults
 */
function commits(repo: RepoContext, baseRef: string, headRef: string): Commit[] {
  const r = repo.git([
    '-c',
    'log.ShowSignature=false',
    'log',
    '--pretty=format:%H%x00%s%x00%b%x00',
    '--cherry',
    `${baseRef}...${headRef}`,
  ]);
  const fail = (why: string): never => {
    throw new GhError(`could not compute title or body defaults: ${why}`);
  };
  if (r.status !== 0) fail(`failed to run git: ${r.stderr}`);
  const found = (r.stdout.match(COMMIT_LOG) ?? []).map((entry) => {
    const [, title = '', body = ''] = entry.split('\x00');
    return { title, body };
  });
  if (found.length === 0) fail(`could not find any commits between ${baseRef} and ${headRef}`);
  return found;
}

/** gh's `humanize`: `_` and `-` become spaces. */
function humanize(s: string): string {
  return s.replace(/[_-]/g, ' ');
}

/**
 * The title and body gh fills in: one commit (or `first`) gives its own subject and body;
 * several give the humanized branch name and a list of subjects (`verbose`: with bodies).
 */
export function fillTitleBody(
  repo: RepoContext,
  baseRef: string,
  headRef: string,
  opts: { first: boolean; verbose: boolean },
): { title: string; body: string } {
  const list = commits(repo, baseRef, headRef);
  const oldest = list[list.length - 1] as Commit;
  if (list.length === 1 || opts.first) return { title: oldest.title, body: oldest.body };
  let body = '';
  for (let i = list.length - 1; i >= 0; i--) {
    const c = list[i] as Commit;
    body += `- **${c.title}**\n`;
    if (opts.verbose) {
      // Go's (?m)^ also matches after a final newline, as JavaScript's does.
      body += c.body.replace(/^/gm, '  ');
      if (i > 0) body += '\n\n';
    }
  }
  return { title: humanize(headRef), body };
}
