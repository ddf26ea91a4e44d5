/**
 * A forest plot: one line per difference, its point and its 95% interval on one axis of
 * points, zero marked. Inline SVG and nothing else, so report.html keeps its CSP (no script,
 * nothing loaded) and the same picture can sit in the viewer's overview.
 */
import { el, type TreeNode } from './tree.js';

/** One line of the plot. Differences and bounds are fractions in [-1, 1]. */
export interface ForestRow {
  readonly label: string;
  readonly difference: number;
  readonly ci: readonly [number, number] | null;
  readonly significant: boolean;
  /** What the row is drawn for, kept on its element so a test (or a reader) can find it. */
  readonly key: string;
}

const LABEL_W = 300;
const PLOT_W = 320;
const VALUE_W = 150;
const ROW_H = 18;
const LABEL_CHARS = 50;
const TOP = 8;
const GOOD = '#1a7f4b';
const MUTED = '#667085';

/** The axis' half-width: the widest bound, rounded up to 25 points, at least 25. */
export function axisHalfWidth(rows: readonly ForestRow[]): number {
  const widest = Math.max(
    0.25,
    ...rows.flatMap((r) => [Math.abs(r.difference), ...(r.ci ?? []).map(Math.abs)]),
  );
  return Math.min(1, Math.ceil(widest * 4 - 1e-9) / 4);
}

const points = (v: number): string =>
  `${v > 0 ? '+' : v < 0 ? '−' : ''}${Math.round(Math.abs(v) * 100)}`;

/** A label the left column holds; the whole of it is the row's tooltip. */
function shortened(label: string): string {
  return label.length <= LABEL_CHARS ? label : `${label.slice(0, LABEL_CHARS - 1)}…`;
}

/** The value column: "+40 pts [5, 70]". */
export function rowValue(r: ForestRow): string {
  const ci = r.ci ? ` [${points(r.ci[0])}, ${points(r.ci[1])}]` : '';
  return `${points(r.difference)} pts${ci}`;
}

/**
 * The plot as a <figure class="forest">, or null with no rows. It is not one of the
 * per-measure charts (data-chart), so it never changes their count.
 */
export function forestTree(
  title: string,
  rows: readonly ForestRow[],
  caption: string,
): TreeNode | null {
  if (rows.length === 0) return null;
  const half = axisHalfWidth(rows);
  const x = (v: number): string => (LABEL_W + ((v + half) / (2 * half)) * PLOT_W).toFixed(1);
  const bottom = TOP + rows.length * ROW_H;
  const height = bottom + 24;
  const parts: TreeNode[] = [
    el('line', {
      class: 'zero',
      x1: x(0),
      x2: x(0),
      y1: String(TOP - 4),
      y2: String(bottom),
      stroke: MUTED,
      'stroke-dasharray': '3 3',
    }),
  ];
  rows.forEach((r, i) => {
    const mid = TOP + i * ROW_H + ROW_H / 2;
    const colour = r.significant ? GOOD : '#1d2330';
    const text = String(mid + 4);
    parts.push(
      el('text', { x: String(LABEL_W - 8), y: text, 'text-anchor': 'end' }, shortened(r.label)),
    );
    if (r.ci) {
      parts.push(
        el('line', {
          x1: x(r.ci[0]),
          x2: x(r.ci[1]),
          y1: String(mid),
          y2: String(mid),
          stroke: colour,
          'stroke-width': '1.5',
        }),
      );
    }
    const at = LABEL_W + ((r.difference + half) / (2 * half)) * PLOT_W;
    const shape = r.significant
      ? el('rect', {
          x: (at - 4).toFixed(1),
          y: String(mid - 4),
          width: '8',
          height: '8',
          fill: colour,
        })
      : el('circle', {
          cx: at.toFixed(1),
          cy: String(mid),
          r: '3.5',
          fill: '#fff',
          stroke: colour,
          'stroke-width': '1.5',
        });
    parts.push(
      el(
        'g',
        { class: 'forest-row', 'data-key': r.key },
        el('title', {}, `${r.label}: ${rowValue(r)}`),
        shape,
      ),
    );
    parts.push(el('text', { x: String(LABEL_W + PLOT_W + 8), y: text }, rowValue(r)));
  });
  const axisY = bottom + 4;
  parts.push(
    el('line', {
      x1: String(LABEL_W),
      x2: String(LABEL_W + PLOT_W),
      y1: String(axisY),
      y2: String(axisY),
      stroke: '#d9dee7',
    }),
  );
  for (const v of [-half, 0, half]) {
    parts.push(
      el(
        'text',
        { x: x(v), y: String(axisY + 14), 'text-anchor': 'middle', fill: MUTED },
        points(v),
      ),
    );
  }
  const w = String(LABEL_W + PLOT_W + VALUE_W);
  const h = String(height);
  return el(
    'figure',
    { class: 'forest' },
    el('figcaption', {}, title),
    el(
      'svg',
      { role: 'img', width: w, height: h, viewBox: `0 0 ${w} ${h}` },
      el('title', {}, title),
      ...parts,
    ),
    el('div', { class: 'small' }, caption),
  );
}
