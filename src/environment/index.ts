/**
 * Task repositories: one per (eval, condition, run), made from the codebase
 * cache, and what changed in them since their baseline.
 */
export { prepareEnvironment } from './prepare.js';
export { handOverTrees } from './ownership.js';
export { isAncestorIn, refreshSeal, sealEnvironment, type Seal } from './seal.js';
export {
  DEFAULT_DISK_BYTES,
  canMountQuota,
  mountQuota,
  sweepQuotas,
  type QuotaView,
} from './quota.js';
export { DEFAULT_MAX_PATCH_BYTES, measureDiff, type MeasureOptions } from './diff.js';
export {
  BASELINE_MESSAGE,
  BASELINE_REF,
  EnvironmentError,
  type DiffCounts,
  type DiffMeasure,
  type Environment,
  type EnvironmentSpec,
  type PlacedPath,
} from './types.js';
