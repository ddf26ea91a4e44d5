/** The candidates as `tasks from-history --dry-run` prints them: one line each, then the dropped by reason. */
import type { Candidates } from './candidates.js';

export function candidatesText(found: Candidates, described: string): string {
  const lines = [
    `${found.kept.length} candidate${found.kept.length === 1 ? '' : 's'} in ${described} (${found.kept.length + found.dropped.length} commits read, merges left out):`,
  ];
  for (const c of found.kept) {
    lines.push(
      `  ${c.commit.slice(0, 12)}  ${c.subject}  (${c.source.length} source, ${c.tests.length} test file${c.tests.length === 1 ? '' : 's'}: ${c.tests.join(', ')})`,
    );
  }
  const reasons = new Map<string, number>();
  for (const d of found.dropped) reasons.set(d.reason, (reasons.get(d.reason) ?? 0) + 1);
  if (reasons.size > 0) {
    lines.push('dropped:');
    for (const [reason, n] of [...reasons].sort((a, b) => b[1] - a[1]))
      lines.push(`  ${n} ${n === 1 ? 'commit' : 'commits'}: ${reason}`);
  }
  lines.push(
    'Nothing was run: each candidate still has to be validated in a container (its tests failing on the parent, passing at the commit).',
  );
  return `${lines.join('\n')}\n`;
}
