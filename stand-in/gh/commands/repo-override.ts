/**
 * `-R/--repo [HOST/]OWNER/REPO` of the pr commands (pkg/cmdutil/repo_override.go). The only
 * repository GitHub holds in a run is the origin's: naming it plays the command as without the
 * flag; naming another is answered as GitHub answers for a repository it cannot resolve.
 */
import { flagError, str, type CommandSpec, type ParsedArgs } from '../cli/args.js';
import type { Ctx } from '../context.js';
import { GhError, NotPlayedError } from '../errors.js';
import { parseRemote, type RepoName } from '../git/index.js';
import { goQuote } from '../cli/quote.js';

/** A repository named on the command line, host included. */
interface NamedRepo extends RepoName {
  host: string;
}

/**
 * go-gh's `repository.Parse` (as `ghrepo.FromFullName` calls it): a URL (`https://…`,
 * `git@host:…`), or `OWNER/REPO` or `HOST/OWNER/REPO` with no empty part.
 */
function parseRepoArg(value: string): NamedRepo {
  if (value.includes('://') || /^[^/:@]+@[^/:]+:/.test(value)) {
    const url = parseRemote(value);
    if (!url || url.host === undefined) throw new NotPlayedError(`"--repo ${value}"`);
    return { host: normalizeHost(url.host), owner: url.owner, name: url.name };
  }
  const parts = value.split('/');
  const wrong = (): never => {
    throw new GhError(`expected the "[HOST/]OWNER/REPO" format, got ${goQuote(value)}`);
  };
  // Go's SplitN(s, "/", 4): a fourth part keeps the rest, so four or more parts are refused.
  if (parts.some((p) => p === '') || parts.length < 2 || parts.length > 3) return wrong();
  const [a = '', b = '', c = ''] = parts;
  return parts.length === 3
    ? { host: normalizeHost(a), owner: b, name: c }
    : { host: 'github.com', owner: a, name: b };
}

/** go-gh's `NormalizeHostname`: lower case, `www.` dropped, `*.github.com` is github.com. */
function normalizeHost(host: string): string {
  const h = host.toLowerCase().replace(/^www\./, '');
  return h.endsWith('.github.com') ? 'github.com' : h;
}

/**
 * The `-R` value, parsed (gh's format error when it is not a repository), or undefined when the
 * flag is absent or empty. A host other than github.com is not played (no other host is logged in).
 */
export function repoOverride(args: ParsedArgs): NamedRepo | undefined {
  const value = str(args, 'repo') ?? '';
  if (value === '') return undefined;
  const named = parseRepoArg(value);
  if (named.host !== 'github.com') throw new NotPlayedError(`"--repo ${value}" (another host)`);
  return named;
}

/**
 * The base repository of a pr command: the origin's, after checking that `-R`, when given,
 * names it (case does not matter to GitHub); a pull request URL as `selector` stands instead. Another repository gets GitHub's answer. Where the
 * origin cannot be resolved, gh would still reach the named repository: not played.
 */
export function baseRepo(ctx: Ctx, args: ParsedArgs, selector?: string): RepoName {
  // A pull request URL names its repository itself; gh's finder takes it over `-R`.
  const named = /^https?:\/\//i.test(selector ?? '') ? undefined : repoOverride(args);
  if (!named) return ctx.repo().repoName();
  let origin: RepoName;
  try {
    origin = ctx.repo().repoName();
  } catch (e) {
    if (!(e instanceof GhError)) throw e;
    throw new NotPlayedError(`"--repo ${str(args, 'repo') ?? ''}" where no remote names it`);
  }
  const same =
    origin.owner.toLowerCase() === named.owner.toLowerCase() &&
    origin.name.toLowerCase() === named.name.toLowerCase();
  if (!same) {
    throw new GhError(
      `GraphQL: Could not resolve to a Repository with the name '${named.owner}/${named.name}'. (repository)`,
    );
  }
  return origin;
}

/** `pr view` and `pr ready` need a selector with `-R` (their RunE's FlagErrorf). */
export function argumentRequiredWithRepo(
  spec: CommandSpec,
  args: ParsedArgs,
  selector: string | undefined,
): void {
  if ((str(args, 'repo') ?? '') !== '' && selector === undefined) {
    throw flagError(spec, 'argument required when using the --repo flag');
  }
}
