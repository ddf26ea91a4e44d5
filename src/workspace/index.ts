/**
 * Task repositories: one per (eval, condition, run), made from the codebase
 * cache, and what changed in them since their baseline.
 */
export { prepareWorkspace } from './prepare.js';
export { filesUnder } from './place.js';
export { handOverTrees } from './ownership.js';
export { isAncestorIn, refreshSeal, sealWorkspace, type Seal } from './seal.js';
export {
  DEFAULT_DISK_BYTES,
  canMountQuota,
  closeQuotas,
  mountQuota,
  newQuotaOwner,
  sweepQuotas,
  type QuotaView,
} from './quota.js';
export { DEFAULT_MAX_PATCH_BYTES, measureDiff, type MeasureOptions } from './diff.js';
export {
  BASELINE_COMMIT,
  BASELINE_REF,
  WorkspaceError,
  type DiffCounts,
  type DiffMeasure,
  type Workspace,
  type WorkspaceSpec,
  type PlacedPath,
} from './types.js';
