import type { CodebaseProvenance, ResolvedCodebase } from './types.js';

/**
 * What artifacts (conditions.json, run.json, benchmark.json, BASELINE.md)
 * record about a codebase: the resolved commit and its provenance, fields
 * absent where they do not apply, never empty.
 */
export function provenanceOf(resolved: ResolvedCodebase): CodebaseProvenance {
  const { warnings: _warnings, ...provenance } = resolved;
  return Object.fromEntries(
    Object.entries(provenance).filter(([, value]) => value !== undefined),
  ) as CodebaseProvenance;
}
