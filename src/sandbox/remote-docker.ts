/**
 * The copied strategy's limits where sandbox/kubernetes/files.ts takes them today; the Docker
 * provider itself is in docker/ (presets.ts, copied.ts).
 */
export { DEFAULT_REMOTE_LIMITS, type RemoteLimits } from './docker/copied-files.js';
