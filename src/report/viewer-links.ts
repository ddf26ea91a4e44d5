/**
 * What report.html shows of the viewer: links into its pages (they open when the campaign
 * folder is served by `evalrig view`; the page itself stays self-contained, no script), and
 * the review notes people left. Every link is relative, below the page's folder.
 */
import type { ReviewFile } from './review-file.js';
import { esc } from './format.js';

/** A relative link into the viewer: each segment encoded to [A-Za-z0-9._~%-] only. */
export function viewLink(segments: readonly (string | number)[]): string {
  const parts = ['_view', ...segments.map(String)].map((s) =>
    encodeURIComponent(s).replace(
      /[!'()*]/g,
      (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
    ),
  );
  return parts.join('/');
}

/** A name a path segment can carry (a slash never can, even encoded: the viewer refuses it). */
const linkable = (segments: readonly (string | number)[]): boolean =>
  segments.every((s) => !/[/\\]/u.test(String(s)) && s !== '.' && s !== '..');

/** After a verdict line: the runs behind it (both conditions, run by run). */
export function verdictRunsLink(v: {
  condition: string;
  baseline: string;
  measure: string;
}): string {
  const segments = ['line', v.condition, v.baseline, v.measure];
  if (!linkable(segments)) return '';
  return ` <a class="runs-behind" href="${esc(viewLink(segments))}">the runs behind this line ↗</a>`;
}

/** The filters a run list of the viewer takes, as the report names them. */
export const VIEW_FILTERS: ReadonlyArray<[string, string]> = [
  ['all', 'all'],
  ['failed_check', 'failed check'],
  ['tampered', 'tampered'],
  ['broken', 'broken'],
  ['timed_out', 'timed out'],
  ['judge_no', 'judge said no'],
];

/** A row of the per-condition table: each condition's runs in the viewer, by filter. */
export function conditionRunsRow(conditions: readonly string[]): string {
  const cells = conditions.map((c) => {
    if (!linkable([c])) return '<td></td>';
    const links = VIEW_FILTERS.map(
      ([f, label]) =>
        `<a class="runs-filter" data-filter="${f}" href="${esc(viewLink(['runs', c, f]))}">${esc(label)}</a>`,
    );
    return `<td class="small" data-condition="${esc(c)}">${links.join(' · ')}</td>`;
  });
  return `<tr class="view-runs"><th>runs in evalrig view ↗</th>${cells.join('')}</tr>`;
}

/** A run's trajectory in the viewer. */
export function runStepsLink(r: { eval: string; condition: string; run: number }): string {
  if (!linkable([r.eval, r.condition])) return '';
  return `<a class="run-steps" href="${esc(viewLink(['run', r.eval, r.condition, r.run]))}">steps ↗</a>`;
}

/** The review notes, kept apart from the judge's grading: who agreed, who did not, and why. */
export function reviewsSection(reviews: readonly ReviewFile[]): string {
  const intro =
    '<p class="small">Links marked ↗ open when this folder is served by <code>evalrig view</code>, which is also where runs are reviewed.</p>';
  if (reviews.length === 0)
    return `<section id="reviews"><h2>Reviews</h2>${intro}<p class="small">No run reviewed yet.</p></section>`;
  const rows = reviews.map((r) => {
    const id = `${r.eval} / ${r.condition} / run-${String(r.run).padStart(2, '0')}`;
    const mark =
      r.verdict === null
        ? 'note'
        : r.verdict === 'agree'
          ? 'agrees with the judge'
          : 'disagrees with the judge';
    return `<tr class="review" data-eval="${esc(r.eval)}" data-condition="${esc(r.condition)}" data-run="${r.run}"><td>${esc(id)} ${runStepsLink(r)}</td><td>${esc(mark)}</td><td class="note-text">${esc(r.note)}</td><td class="small">${esc(r.updated_at)}</td></tr>`;
  });
  return `<section id="reviews"><h2>Reviews</h2>${intro}<table><tr><th>run</th><th>review</th><th>note</th><th>when</th></tr>${rows.join('')}</table></section>`;
}

/**
 * Said beside the viewer's links: opened from disk, they lead nowhere, and a page with no
 * script cannot tell which way it was opened.
 */
export const VIEWER_NOTE =
  '<div class="small viewer-note">Links marked ↗ open in the viewer: run <code>evalrig view &lt;this folder&gt;</code> and open this report from there. Opened from disk, they lead nowhere.</div>';
