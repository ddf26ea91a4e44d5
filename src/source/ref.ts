/** A full commit name: 40 hex digits. */
export function isFullCommit(ref: string): boolean {
  return /^[0-9a-fA-F]{40}$/.test(ref);
}

/**
 * 7 to 39 hex digits: what a short commit hash looks like. Refused as a ref,
 * because it can become ambiguous as the repository grows and cannot be
 * resolved without fetching everything.
 */
export function isShortCommitHash(ref: string): boolean {
  return /^[0-9a-fA-F]{7,39}$/.test(ref);
}
