/**
 * git's own reason from its standard error: every `fatal:`, `error:` and
 * `remote:` line (prefixes dropped), joined with '; ', without the generic
 * hint git adds after a failed connection ("Please make sure you have the
 * correct access rights..."). When git printed no such line, its last line.
 *
 * @example
 * gitReason("fatal: '/x.git' does not appear to be a git repository\nfatal: Could not read from remote repository.\n\nPlease make sure you have the correct access rights\nand the repository exists.\n")
 * // "'/x.git' does not appear to be a git repository; Could not read from remote repository."
 */
export function gitReason(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const reasons = lines
    .filter((line) => /^(fatal|error|remote):/.test(line))
    .map((line) => line.replace(/^(fatal|error|remote):\s*/, ''))
    .filter(Boolean);
  if (reasons.length > 0) return reasons.join('; ');
  return lines.pop() ?? '';
}
