import { InputError } from '../errors/index.js';

/**
 * Where a codebase comes from, as a user declares it: a git URL and a ref (a
 * branch, a tag or a full 40-hex commit; never a short hash), or a local path
 * (absolute, or relative to the file that declares it).
 *
 * @example { url: 'https://example.org/acme/toy.git', ref: 'v1.4.0' }
 * @example { path: '../fixtures/legacy-service' }
 */
export type CodebaseSource = { url: string; ref: string } | { path: string };

/** A codebase source pinned to a commit, with what the reports must say about it. */
export interface ResolvedCodebase {
  kind: 'git' | 'path' | 'snapshot';
  /** Git sources: the URL as declared (a relative local path is made absolute). */
  url?: string;
  /** Git sources: the declared ref. */
  ref?: string;
  /** Path and snapshot sources: the absolute path. */
  path?: string;
  /** The resolved 40-hex commit (snapshot: the commit of the snapshot repository made in the cache). */
  commit: string;
  /** The branch environments start on: the ref if it is a branch, else the source's default branch, else 'main'. */
  branch: string;
  /** Path and snapshot sources: nobody else can resolve this source. */
  host_local?: true;
  /** Path source that is a repository with an `origin` remote: its URL. */
  origin?: string;
  /** Path source with uncommitted work (which is not carried). */
  dirty?: true;
  /** Human-readable warnings to print (host-local, dirty). */
  warnings: string[];
}

/** What artifacts record about a codebase: {@link ResolvedCodebase} without its warnings. */
export type CodebaseProvenance = Omit<ResolvedCodebase, 'warnings'>;

/**
 * A codebase source cannot be resolved (bad URL, unknown ref, short hash,
 * missing path). Raised before anything is built; the message names the source.
 */
export class CodebaseSourceError extends InputError {
  readonly source: CodebaseSource;

  constructor(source: CodebaseSource, problem: string, options: { cause?: unknown } = {}) {
    super(`codebase ${describeSource(source)}: ${problem}`, options);
    this.source = source;
  }
}

/** `url@ref` or the path, as messages and logs show a source. */
export function describeSource(source: CodebaseSource): string {
  return 'url' in source ? `${source.url}@${source.ref}` : source.path;
}
