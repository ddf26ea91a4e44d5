/// <reference lib="dom" />
import { FILTERS, rowKey, selectRows, type RunRow } from './data.js';
import { h, seconds, tag, viewHref } from './dom.js';

/** A run's page, keeping the list it was opened from (for next and previous). */
export function runHref(
  r: Pick<RunRow, 'eval' | 'condition' | 'run'>,
  q?: URLSearchParams,
): string {
  return viewHref(['run', r.eval, r.condition, r.run], q);
}

function flagTags(r: RunRow): HTMLElement[] {
  const out: HTMLElement[] = [];
  if (r.flags.failed_check) out.push(tag('failed check', 'ko'));
  if (r.flags.tampered) out.push(tag('tampered', 'ko'));
  if (r.flags.broken) out.push(tag('broken', 'ko'));
  if (r.flags.timed_out) out.push(tag('timed out', 'wn'));
  if (r.flags.failed) out.push(tag('failed', 'ko'));
  return out;
}

function judgeCell(r: RunRow): HTMLElement | string {
  if (!r.judge) return '';
  if (r.judge.status !== 'graded') return tag('judge error', 'wn');
  return r.judge.all_passed ? tag('judge: yes', 'ok') : tag('judge: no', 'ko');
}

function reviewCell(r: RunRow): HTMLElement | string {
  if (!r.review) return '';
  const v = r.review.verdict;
  return h(
    'span',
    { class: 'review', title: r.review.note },
    v === null
      ? tag('note')
      : tag(v === 'agree' ? 'agrees' : 'disagrees', v === 'agree' ? 'ok' : 'ko'),
    r.review.note.length > 60 ? `${r.review.note.slice(0, 60)}…` : r.review.note,
  );
}

function rowElement(r: RunRow, q: URLSearchParams): HTMLElement {
  return h(
    'tr',
    {
      'data-key': rowKey(r),
      'data-eval': r.eval,
      'data-condition': r.condition,
      'data-run': r.run,
    },
    h(
      'td',
      {},
      h(
        'a',
        { href: runHref(r, q), class: 'run-link' },
        `${r.eval} / ${r.condition} / run-${String(r.run).padStart(2, '0')}`,
      ),
    ),
    h('td', { class: `st st-${r.status}` }, r.status.replace('_', ' ')),
    h('td', {}, ...flagTags(r)),
    h('td', {}, judgeCell(r)),
    h('td', {}, reviewCell(r)),
    h('td', { class: 'v' }, `${r.turns}`),
    h('td', { class: 'v' }, seconds(r.duration_ms)),
  );
}

/**
 * The runs a query selects, as a table whose rows keep their place as live rows arrive;
 * j/k (or the arrows) move the selection, Enter opens the selected run.
 */
export class RunList {
  readonly element: HTMLElement;
  private readonly body: HTMLElement;
  private readonly count: HTMLElement;
  private rows: RunRow[];
  private selected = 0;
  private pending = false;

  constructor(
    rows: readonly RunRow[],
    private readonly q: URLSearchParams,
  ) {
    this.rows = [...rows];
    this.body = h('tbody');
    this.count = h('span', { class: 'small count' });
    this.element = h(
      'div',
      { class: 'run-list' },
      this.filters(),
      this.count,
      h(
        'table',
        { id: 'runs' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ...['run', 'status', 'flags', 'judge', 'review', 'turns', 'duration'].map((x) =>
              h('th', {}, x),
            ),
          ),
        ),
        this.body,
      ),
      h(
        'p',
        { class: 'keys' },
        h('kbd', {}, 'j'),
        ' / ',
        h('kbd', {}, 'k'),
        ' move · ',
        h('kbd', {}, 'Enter'),
        ' opens the run · on a run, ',
        h('kbd', {}, 'n'),
        ' / ',
        h('kbd', {}, 'p'),
        ' next and previous',
      ),
    );
    this.render();
    document.addEventListener('keydown', (e) => this.key(e));
  }

  private filters(): HTMLElement {
    const current = this.q.get('filter') ?? 'all';
    const links = Object.entries(FILTERS).map(([name, f]) => {
      const q = new URLSearchParams(this.q);
      if (name === 'all') q.delete('filter');
      else q.set('filter', name);
      const href = viewHref(['runs'], q);
      return name === current
        ? h('b', {}, f.label)
        : h('a', { href, 'data-filter': name }, f.label);
    });
    const scope = [this.q.get('condition'), this.q.get('eval')].filter(Boolean).join(' · ');
    return h('div', { class: 'filters' }, scope ? h('span', {}, `${scope}:`) : '', ...links);
  }

  /** A row that arrived live: added, or put in place of the one it replaces. */
  upsert(row: RunRow): void {
    const key = rowKey(row);
    const at = this.rows.findIndex((r) => rowKey(r) === key);
    if (at >= 0) this.rows[at] = row;
    else this.rows.push(row);
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => {
      this.pending = false;
      this.render();
    });
  }

  private render(): void {
    const shown = selectRows(this.rows, this.q);
    this.body.replaceChildren(...shown.map((r) => rowElement(r, this.q)));
    this.count.textContent = `${shown.length} of ${this.rows.length} runs`;
    this.select(Math.min(this.selected, shown.length - 1));
  }

  private select(i: number): void {
    const trs = this.body.children;
    trs[this.selected]?.classList.remove('sel');
    this.selected = Math.max(0, i);
    const tr = trs[this.selected];
    tr?.classList.add('sel');
    tr?.scrollIntoView({ block: 'nearest' });
  }

  private key(e: KeyboardEvent): void {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement) return;
    if (e.key === 'j' || e.key === 'ArrowDown')
      this.select(Math.min(this.selected + 1, this.body.children.length - 1));
    else if (e.key === 'k' || e.key === 'ArrowUp') this.select(this.selected - 1);
    else if (e.key === 'Enter') {
      const link = this.body.children[this.selected]?.querySelector('a.run-link');
      if (link instanceof HTMLAnchorElement) location.assign(link.href);
    } else return;
    e.preventDefault();
  }
}
