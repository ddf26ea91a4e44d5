import { cell } from '../report/markdown.js';
import {
  detectableText,
  differenceText,
  differsMark,
  groupTitle,
  LOAD_NOTE,
  loadMoved,
  measureLabel,
  METHOD,
  oneSidedGroupLine,
  provenanceRows,
  pText,
  sideValue,
  unknownOnBoth,
} from './format.js';
import type { CompareFile, GroupComparison } from './types.js';

function table(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const line = (cells: readonly string[]): string => `| ${cells.map(cell).join(' | ')} |`;
  return [line(header), `|${header.map(() => ' --- ').join('|')}|`, ...rows.map(line)].join('\n');
}

/** The headings every compare.md has (checked before it is written). */
export const COMPARE_MD_HEADINGS = ['## Provenance', '## Per condition', '## Per eval'];

function groupSection(g: GroupComparison): string[] {
  const shown = g.measures.filter((m) => !unknownOnBoth(m));
  const none = g.measures.filter(unknownOnBoth);
  const parts = [
    `### ${groupTitle(g)}`,
    '',
    `Runs: A ${g.runs.a} (${g.measured.a} measured), B ${g.runs.b} (${g.measured.b} measured).`,
    '',
  ];
  if (shown.length)
    parts.push(
      table(
        ['measure', 'A', 'B', 'B − A [95% CI]', "Fisher's p"],
        shown.map((m) => [
          measureLabel(m.measure),
          sideValue(m, 'a'),
          sideValue(m, 'b'),
          differenceText(m),
          pText(m),
        ]),
      ),
      '',
    );
  if (shown.some((m) => loadMoved(m.measure))) parts.push(LOAD_NOTE, '');
  const power = detectableText(g);
  if (power) parts.push(power, '');
  if (none.length)
    parts.push(
      `No run measured on either side (n 0): ${none.map((m) => measureLabel(m.measure)).join(', ')}.`,
      '',
    );
  for (const side of ['a', 'b'] as const) {
    const only = g.one_sided.filter((m) => m.only === side);
    if (only.length)
      parts.push(
        `Only in ${side.toUpperCase()}: ${only.map((m) => `${measureLabel(m.measure)} (${m.kind})`).join(', ')}.`,
        '',
      );
  }
  return parts;
}

/** compare.md: the provenance with its verdict, then every measure side by side. */
export function renderCompareMd(c: CompareFile): string {
  const p = c.provenance;
  const side = (s: CompareFile['a'], name: string) =>
    `- ${name}: \`${s.dir}\`, campaign \`${s.campaign}\`, ${s.runs.total} runs${s.runs.without_record ? ` (${s.runs.without_record} run folders without a record)` : ''}, baseline condition \`${s.baseline_condition}\`, measured ${s.generated_at}`;
  const verdict = p.attribution === 'several' ? `> **${p.verdict}**` : p.verdict;
  const parts = [
    `# Compare: ${c.a.campaign} (A) → ${c.b.campaign} (B)`,
    '',
    side(c.a, 'A'),
    side(c.b, 'B'),
    '',
    METHOD,
    '',
    ...c.notes.flatMap((n) => [`> ${n}`, '']),
    '## Provenance',
    '',
    verdict,
    '',
  ];
  if (p.differences.length) {
    for (const d of p.differences) {
      parts.push(`- **${d.what}**: A ${d.a}; B ${d.b}`);
      for (const i of d.includes ?? []) parts.push(`  - with it: ${i}`);
    }
    parts.push('');
  }
  const rows = provenanceRows(p.a, p.b).map((r) => [r.what, r.a, r.b, differsMark(r)]);
  parts.push(table(['what', 'A', 'B', ''], rows), '');

  const overall = c.groups.filter((g) => g.eval === null);
  const perEval = c.groups.filter((g) => g.eval !== null);
  parts.push('## Per condition', '');
  if (overall.length === 0) parts.push('No condition on both sides.', '');
  for (const g of overall) parts.push(...groupSection(g));
  parts.push('## Per eval', '');
  if (perEval.length === 0) parts.push('No (eval, condition) on both sides.', '');
  for (const g of perEval) parts.push(...groupSection(g));
  if (c.one_sided.length) {
    parts.push('## Only on one side', '');
    for (const g of c.one_sided) parts.push(`- ${oneSidedGroupLine(g)}`);
    parts.push('');
  }
  return parts.join('\n');
}
