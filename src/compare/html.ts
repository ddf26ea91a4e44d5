import { CSS, checkBalanced, esc } from '../report/html.js';
import { ReportStructureError } from '../report/markdown.js';
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
import type { CompareFile, GroupComparison, MeasureComparison } from './types.js';

// The report's look; a difference whose interval leaves zero out stands out (in no colour of
// good or bad: whether up is better depends on the measure).
const COMPARE_CSS = `${CSS}
.warn{background:#fbe2df;border:1px solid #e9a39b;padding:6px 10px;border-radius:4px;font-weight:600}
td.clear{font-weight:600;color:var(--accent)}
tr.differs td{background:#fff6e0}
#provenance{width:100%;table-layout:fixed}#provenance th.what{width:13em}#provenance th.mark{width:2.5em}
#provenance td{overflow-wrap:anywhere;font:12px/1.4 ui-monospace,Menlo,Consolas,monospace}
`;

/** Whether the 95% interval leaves zero out, in a measure the machine's load does not move. */
function clear(m: MeasureComparison): boolean {
  if (loadMoved(m.measure)) return false;
  return m.ci95 !== null && (m.ci95[0] > 0 || m.ci95[1] < 0);
}

function measureRow(g: GroupComparison, m: MeasureComparison): string {
  const data = `data-eval="${esc(g.eval ?? '')}" data-condition="${esc(g.condition)}" data-measure="${esc(m.measure)}" data-difference="${m.difference ?? ''}"`;
  return `<tr ${data}><th>${esc(measureLabel(m.measure))}</th><td class="v">${esc(sideValue(m, 'a'))}</td><td class="v">${esc(sideValue(m, 'b'))}</td><td class="v${clear(m) ? ' clear' : ''}">${esc(differenceText(m))}</td><td class="v">${esc(pText(m))}</td></tr>`;
}

function groupSection(g: GroupComparison): string {
  const shown = g.measures.filter((m) => !unknownOnBoth(m));
  const none = g.measures.filter(unknownOnBoth);
  const head = `<tr><th>measure</th><th>A</th><th>B</th><th>B − A [95% CI]</th><th>Fisher's p</th></tr>`;
  const parts = [
    `<h3>${esc(groupTitle(g))}</h3>`,
    `<p class="small">Runs: A ${g.runs.a} (${g.measured.a} measured), B ${g.runs.b} (${g.measured.b} measured).</p>`,
  ];
  if (shown.length)
    parts.push(`<table>${head}${shown.map((m) => measureRow(g, m)).join('')}</table>`);
  if (shown.some((m) => loadMoved(m.measure)))
    parts.push(`<p class="small load">${esc(LOAD_NOTE)}</p>`);
  const power = detectableText(g);
  if (power) parts.push(`<p class="small detectable">${esc(power)}</p>`);
  if (none.length)
    parts.push(
      `<p class="small">No run measured on either side (n 0): ${esc(none.map((m) => measureLabel(m.measure)).join(', '))}.</p>`,
    );
  for (const side of ['a', 'b'] as const) {
    const only = g.one_sided.filter((m) => m.only === side);
    if (only.length)
      parts.push(
        `<p class="note" data-only="${side}">Only in ${side.toUpperCase()}: ${esc(only.map((m) => `${measureLabel(m.measure)} (${m.kind})`).join(', '))}.</p>`,
      );
  }
  return parts.join('');
}

/** compare.html: the same content as compare.md on one self-contained page, in report.html's style. */
export function renderCompareHtml(c: CompareFile): string {
  const p = c.provenance;
  const side = (s: CompareFile['a'], name: string) =>
    `<li><b>${name}</b>: ${esc(s.dir)}, campaign ${esc(s.campaign)}, ${s.runs.total} runs${s.runs.without_record ? ` (${s.runs.without_record} run folders without a record)` : ''}, baseline condition ${esc(s.baseline_condition)}, measured ${esc(s.generated_at)}</li>`;
  const verdict =
    p.attribution === 'several'
      ? `<p class="warn" id="verdict" data-attribution="several">${esc(p.verdict)}</p>`
      : `<p class="note" id="verdict" data-attribution="${p.attribution}">${esc(p.verdict)}</p>`;
  const differences = p.differences.length
    ? `<ul id="differences">${p.differences.map((d) => `<li data-aspect="${d.aspect}"><b>${esc(d.what)}</b>: A ${esc(d.a)}; B ${esc(d.b)}${(d.includes ?? []).map((i) => `<br><span class="small">with it: ${esc(i)}</span>`).join('')}</li>`).join('')}</ul>`
    : '';
  const rows = provenanceRows(p.a, p.b)
    .map((r) => {
      const mark = differsMark(r);
      return `<tr${mark ? ' class="differs"' : ''}><th>${esc(r.what)}</th><td>${esc(r.a)}</td><td>${esc(r.b)}</td><td>${mark}</td></tr>`;
    })
    .join('');
  const overall = c.groups.filter((g) => g.eval === null);
  const perEval = c.groups.filter((g) => g.eval !== null);
  const oneSided = c.one_sided.length
    ? `<section id="one-sided"><h2>Only on one side</h2><ul>${c.one_sided.map((g) => `<li>${esc(oneSidedGroupLine(g))}</li>`).join('')}</ul></section>`
    : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>evalrig compare: ${esc(c.a.campaign)} → ${esc(c.b.campaign)}</title>
<style>${COMPARE_CSS}</style>
</head>
<body>
<h1>evalrig compare: ${esc(c.a.campaign)} (A) → ${esc(c.b.campaign)} (B)</h1>
<ul class="small">${side(c.a, 'A')}${side(c.b, 'B')}</ul>
<p class="lead">${esc(METHOD)}</p>
${c.notes.map((n) => `<p class="note">${esc(n)}</p>`).join('')}
<section id="provenance-section"><h2>Provenance</h2>${verdict}${differences}<table id="provenance"><tr><th class="what">what</th><th>A</th><th>B</th><th class="mark"></th></tr>${rows}</table></section>
<section id="per-condition"><h2>Per condition</h2>${overall.length ? overall.map(groupSection).join('') : '<p>No condition on both sides.</p>'}</section>
<section id="per-eval"><h2>Per eval</h2>${perEval.length ? perEval.map(groupSection).join('') : '<p>No (eval, condition) on both sides.</p>'}</section>
${oneSided}
</body>
</html>
`;
}

/**
 * Asserts the page is self-contained and well formed before it is written: a
 * doctype, nothing loaded, no link at all, container tags balanced.
 */
export function checkCompareHtml(file: string, html: string): void {
  if (!html.startsWith('<!doctype html>')) throw new ReportStructureError(file, 'no doctype');
  if (/<script\b|<link\b|<iframe\b|<img\b|<object\b|<embed\b|<a\b|@import|url\(/i.test(html))
    throw new ReportStructureError(file, 'it would load or link something');
  if (/\s(src|href|action|srcset|poster|formaction|xlink:href)\s*=/i.test(html))
    throw new ReportStructureError(file, 'an attribute points off the page');
  checkBalanced(file, html);
}
