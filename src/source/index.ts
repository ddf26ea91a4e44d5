/**
 * Codebase sources: resolving a declared source to a commit (with its
 * provenance) and the per-commit cache of clones environments are made from.
 * Knows nothing about evals.
 */
export {
  CodebaseSourceError,
  describeSource,
  type CodebaseProvenance,
  type CodebaseSource,
  type ResolvedCodebase,
} from './types.js';
export { resolveCodebases, type SourceDeclaration } from './resolve.js';
export {
  CodebaseCacheError,
  SNAPSHOT_MESSAGE,
  cacheRoot,
  materializeCodebase,
  type CacheOptions,
} from './cache.js';
export { provenanceOf } from './provenance.js';
export { isFullCommit, isShortCommitHash } from './ref.js';
