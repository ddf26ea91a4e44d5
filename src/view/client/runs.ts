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
 * The runs a query selects, as a table: rows are appended as they stream in, and a row that
 * arrives live takes the place of the one it replaces (or is added). j/k (or the arrows) move
 * the selection, Enter opens the selected run.
 */
export class RunList {
  readonly element: HTMLElement;
  private readonly body: HTMLElement;
  private readonly count: HTMLElement;
  private readonly shown = new Map<string, HTMLElement>();
  private total = 0;
  private selected = 0;
  private readonly filter: (r: RunRow) => boolean;

  constructor(private readonly q: URLSearchParams) {
    this.filter = (r) => selectRows([r], q).length === 1;
    this.body = h('tbody');
    this.count = h('span', { class: 'small count' });
    const head = ['run', 'status', 'flags', 'judge', 'review', 'turns', 'duration'];
    this.element = h(
      'div',
      { class: 'run-list' },
      this.filters(),
      this.count,
      h(
        'table',
        { id: 'runs' },
        h('thead', {}, h('tr', {}, ...head.map((x) => h('th', {}, x)))),
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
    this.counted();
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

  /** Rows streamed in order: those the query selects are appended. */
  add(rows: readonly RunRow[]): void {
    const frag = document.createDocumentFragment();
    for (const r of rows) {
      this.total++;
      if (!this.filter(r)) continue;
      const tr = rowElement(r, this.q);
      this.shown.set(rowKey(r), tr);
      frag.append(tr);
    }
    const first = this.body.children.length === 0;
    this.body.append(frag);
    if (first) this.select(0, false);
    this.counted();
  }

  /** A row that arrived live: in place of the one it replaces, or added. */
  upsert(row: RunRow): void {
    const key = rowKey(row);
    const old = this.shown.get(key);
    if (!old) return this.add([row]);
    const tr = rowElement(row, this.q);
    if (old.classList.contains('sel')) tr.classList.add('sel');
    old.replaceWith(tr);
    this.shown.set(key, tr);
  }

  private counted(): void {
    this.count.textContent = `${this.body.children.length} of ${this.total} runs`;
  }

  private select(i: number, scroll = true): void {
    const trs = this.body.children;
    trs[this.selected]?.classList.remove('sel');
    this.selected = Math.max(0, Math.min(i, trs.length - 1));
    const tr = trs[this.selected];
    tr?.classList.add('sel');
    if (scroll) tr?.scrollIntoView({ block: 'nearest' });
  }

  private key(e: KeyboardEvent): void {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement) return;
    if (e.key === 'j' || e.key === 'ArrowDown') this.select(this.selected + 1);
    else if (e.key === 'k' || e.key === 'ArrowUp') this.select(this.selected - 1);
    else if (e.key === 'Enter') {
      const link = this.body.children[this.selected]?.querySelector('a.run-link');
      if (link instanceof HTMLAnchorElement) location.assign(link.href);
    } else return;
    e.preventDefault();
  }
}
