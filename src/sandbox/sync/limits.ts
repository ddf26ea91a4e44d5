/**
 * What one sync out of a copying provider may bring back, and how big a
 * listing may be: the same bounds for a remote Docker engine and a pod, so an
 * agent's tree is refused at the same size whatever runs it.
 */
import type { ApplyLimits } from './apply.js';

export interface RemoteLimits extends ApplyLimits {
  readonly maxEntries: number;
  readonly maxListingBytes: number;
}

/**
 * The defaults. `maxTotalBytes` is also what a sandbox's host copies may take when its spec
 * names no `diskBytes`.
 */
export const DEFAULT_REMOTE_LIMITS: RemoteLimits = {
  maxFileBytes: 512 * 1024 ** 2,
  maxTotalBytes: 4 * 1024 ** 3,
  maxEntries: 2_000_000,
  maxListingBytes: 512 * 1024 ** 2,
};
