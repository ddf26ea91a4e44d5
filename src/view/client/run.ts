/// <reference lib="dom" />
import type { Step, Trajectory } from '../../trajectory/types.js';
import { rowKey, runDetail, runRows, saveReview, selectRows, type RunRow } from './data.js';
import { append, fileHref, folded, h, mount, seconds, tag, viewHref } from './dom.js';
import { runHref } from './runs.js';
import { treatmentSection } from './caveats.js';
import { diffSection } from './diffs.js';
import { stepElement } from './steps.js';

const runName = (r: Pick<RunRow, 'eval' | 'condition' | 'run'>): string =>
  `${r.eval} / ${r.condition} / run-${String(r.run).padStart(2, '0')}`;

function stepLink(i: number | null): HTMLElement | string {
  return i === null ? '' : h('a', { href: `#step-${i}`, class: 'cites' }, ` → step #${i}`);
}

/** The checks, the message checks and the judge's grading, each linked to the step it cites. */
function outcomes(t: Trajectory): HTMLElement {
  const checks = t.checks.map((c) =>
    h(
      'li',
      { 'data-check': c.name },
      c.passed ? tag('passed', 'ok') : tag('failed', 'ko'),
      `${c.name} (exit ${c.exit_code ?? 'none'})`,
      c.output ? folded(c.output, 'output') : '',
    ),
  );
  const messages = t.message_checks.map((c) =>
    h(
      'li',
      { 'data-message-check': c.name },
      c.passed === null ? tag('n/a') : c.passed ? tag('passed', 'ok') : tag('failed', 'ko'),
      `message check ${c.name}`,
      ...c.looked_at.map((l) =>
        h(
          'span',
          { class: 'small' },
          ` · turn ${l.turn}: ${l.passed ? 'held' : 'did not hold'}`,
          stepLink(l.step),
        ),
      ),
    ),
  );
  const g = t.grading;
  const grading = !g
    ? []
    : g.status === 'error'
      ? [h('li', {}, tag('judge error', 'wn'), g.error ?? '')]
      : g.expectations.map((e) =>
          h(
            'li',
            { class: 'expectation' },
            e.passed === null
              ? tag('n/a')
              : e.passed
                ? tag('judge: yes', 'ok')
                : tag('judge: no', 'ko'),
            e.expectation,
            e.evidence === null
              ? ''
              : h('div', { class: 'small evidence' }, `evidence: ${e.evidence}`, stepLink(e.step)),
          ),
        );
  return h(
    'section',
    { id: 'outcomes' },
    h('h2', {}, 'Checks and grading'),
    h('ul', {}, ...checks, ...messages, ...grading),
  );
}

function reviewForm(row: RunRow): HTMLElement {
  const r = row.review;
  const radio = (value: string, label: string) =>
    h(
      'label',
      {},
      h('input', { type: 'radio', name: 'verdict', value, checked: (r?.verdict ?? '') === value }),
      ` ${label} `,
    );
  const note = h('textarea', { name: 'note', maxlength: 4000 }) as HTMLTextAreaElement;
  note.value = r?.note ?? '';
  const status = h('span', { class: 'small status' }, r ? `saved ${r.updated_at}` : 'not reviewed');
  const form = h(
    'form',
    { class: 'review' },
    h(
      'div',
      {},
      "Your review (kept apart from the judge's grading): ",
      radio('agree', 'agree with the judge'),
      radio('disagree', 'disagree'),
      radio('', 'no mark'),
    ),
    note,
    h('div', {}, h('button', { type: 'submit' }, 'Save review'), ' ', status),
  ) as HTMLFormElement;
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const v = new FormData(form).get('verdict');
    const verdict = v === 'agree' || v === 'disagree' ? v : null;
    saveReview(row.eval, row.condition, row.run, { verdict, note: note.value }).then(
      (saved) => (status.textContent = `saved ${saved.updated_at}`),
      (error: Error) => (status.textContent = `not saved: ${error.message}`),
    );
  });
  return h('section', { id: 'review' }, h('h2', {}, 'Review'), form);
}

/** The steps, turn by turn, each turn closed by its stop. */
export function stepList(t: Trajectory, steps: readonly Step[] = t.steps): HTMLElement {
  const list = h('div', { class: 'steps' });
  const frag = document.createDocumentFragment();
  for (const s of steps) frag.append(stepElement(t, s));
  list.append(frag);
  return list;
}

function header(row: RunRow, t: Trajectory, nav: HTMLElement): HTMLElement {
  const dir = `run-${String(row.run).padStart(2, '0')}`;
  const files = ['run.json', 'diff.patch', 'calls.jsonl'].map((f) =>
    h('a', { href: fileHref(['runs', row.eval, row.condition, dir, f]) }, f),
  );
  const source = {
    gateway: "the model gateway's flight record (witnessed)",
    output: "the agent's stdout and stderr",
    stream: "the agent's own stream (a claim: no flight record was kept)",
    none: 'nothing recorded',
  }[t.source];
  const ok = row.status === 'completed' ? 'ok' : 'ko';
  return h(
    'div',
    {},
    h('h1', {}, runName(row), ' ', tag(row.status.replace('_', ' '), ok)),
    t.error ? h('p', { class: 'note' }, t.error) : '',
    h(
      'p',
      { class: 'small' },
      `${t.steps.length} steps from ${source} · ${t.totals.model_calls} model calls, ${t.totals.tool_calls} tool calls, ${t.totals.gh_calls} gh calls · ${t.totals.tokens_in} in / ${t.totals.tokens_out} out tokens · ${seconds(t.duration_ms)}`,
      t.steps_omitted > 0 ? ` · ${t.steps_omitted} steps not shown` : '',
    ),
    nav,
    h('p', { class: 'small' }, 'files: ', ...files.flatMap((f, i) => (i ? [' ', f] : [f]))),
  );
}

/** Previous and next run of the list the page was opened from, and the same run elsewhere. */
function fillNav(nav: HTMLElement, row: RunRow, rows: readonly RunRow[], q: URLSearchParams): void {
  const list = selectRows(rows, q);
  const at = list.findIndex((r) => rowKey(r) === rowKey(row));
  const prev = at > 0 ? list[at - 1] : undefined;
  const next = at >= 0 && at < list.length - 1 ? list[at + 1] : undefined;
  document.addEventListener('keydown', (e) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement) return;
    if ((e.key === 'n' || e.key === ']') && next) location.assign(runHref(next, q));
    if ((e.key === 'p' || e.key === '[') && prev) location.assign(runHref(prev, q));
  });
  const pairs = rows
    .filter((o) => o.eval === row.eval && o.run === row.run && o.condition !== row.condition)
    .map((o) =>
      h(
        'a',
        {
          href: viewHref(['pair', row.eval, row.run, row.condition, o.condition]),
          class: 'pair-link',
        },
        `side by side with ${o.condition}`,
      ),
    );
  append(nav, [
    prev
      ? h('a', { href: runHref(prev, q), rel: 'prev', class: 'prev' }, `← ${runName(prev)}`)
      : 'first run',
    ' · ',
    next
      ? h('a', { href: runHref(next, q), rel: 'next', class: 'next' }, `${runName(next)} →`)
      : 'last run',
    ' (keys p and n)',
    ...pairs.flatMap((p) => [' · ', p]),
  ]);
  nav.setAttribute('data-ready', '');
}

/** One run: its steps first, then (once the run list is read) next, previous and its pairs. */
export async function runPage(
  evalId: string,
  condition: string,
  n: number,
  q: URLSearchParams,
): Promise<void> {
  // The run first: the list (for next and previous) streams every row, and would slow it.
  const { row, trajectory } = await runDetail(evalId, condition, n);
  const rows = runRows();
  document.title = `${runName(row)} · evalrig view`;
  const nav = h('p', { class: 'small nav' });
  mount(
    header(row, trajectory, nav),
    outcomes(trajectory),
    treatmentSection(trajectory),
    diffSection(row),
    reviewForm(row),
    h('h2', {}, 'Steps'),
    stepList(trajectory),
  );
  if (location.hash) document.getElementById(location.hash.slice(1))?.scrollIntoView();
  fillNav(nav, row, await rows, q);
}
