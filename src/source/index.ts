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
  missingLocalRef,
  missingLocalRefs,
  noSuchRef,
  type DeclaredCodebase,
} from './missing-ref.js';
export {
  CACHE_LAYOUT,
  CACHE_MANIFEST,
  CodebaseCacheError,
  SNAPSHOT_MESSAGE,
  cacheRoot,
  materializeCodebase,
  readCacheEntry,
  verifyCacheEntry,
  type CacheEntry,
  type CacheOptions,
} from './cache.js';
export { defaultSharing, placeCodebaseObjects, type ObjectSharing } from './objects.js';
export { STALE_TEMP_MS, sweepStaleTemps } from './sweep.js';
export { gitReason } from './reason.js';
export { provenanceOf } from './provenance.js';
export { isFullCommit, isShortCommitHash } from './ref.js';
