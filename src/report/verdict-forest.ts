/**
 * The verdict as a picture: each line's difference and interval on one axis, zero marked,
 * above the lines themselves (report.html; the viewer's overview draws the same rows).
 */
import type { BenchmarkFile } from './benchmark-file.js';
import { forestTree, type ForestRow } from './forest.js';
import type { TreeNode } from './tree.js';
import { phraseOf } from './verdict.js';

/** One row per verdict line, in the lines' order (smallest p first). */
export function verdictForestRows(b: BenchmarkFile): ForestRow[] {
  const several =
    new Set((b.verdicts ?? []).map((v) => `${v.condition}\u0000${v.baseline}`)).size > 1;
  return (b.verdicts ?? []).map((v) => ({
    label: several
      ? `${v.condition} vs ${v.baseline}: ${phraseOf(v.measure)}`
      : phraseOf(v.measure),
    difference: v.difference,
    ci: v.ci95 ? [v.ci95[0], v.ci95[1]] : null,
    significant: v.significant,
    key: `${v.condition}/${v.baseline}/${v.measure}`,
  }));
}

/** The plot, or null when there is no verdict line. */
export function verdictForest(b: BenchmarkFile): TreeNode | null {
  const rows = verdictForestRows(b);
  const pair = b.verdicts?.[0];
  if (!pair) return null;
  const title =
    new Set(rows.map((r) => r.key.split('/').slice(0, 2).join('/'))).size > 1
      ? 'Differences between the conditions'
      : `${pair.condition} minus ${pair.baseline}, in points`;
  return forestTree(
    title,
    rows,
    'Each line: the difference in points with its 95% interval; the dashed line is no difference; a filled square is p < 0.05, a hollow circle could be chance.',
  );
}
