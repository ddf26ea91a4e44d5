/// <reference lib="dom" />
import {
  campaignInfo,
  FILTERS,
  listen,
  rowKey,
  runRows,
  streamRows,
  type BenchmarkFile,
  type CampaignInfo,
  type RunRow,
} from './data.js';
import { MEASURE_LABELS } from '../../report/format.js';
import { fromTree, h, mount, pct, viewHref } from './dom.js';
import { verdictForest } from '../../report/verdict-forest.js';
import { behaviourForest } from '../../report/behaviour-render.js';
import { firstLines } from './caveats.js';
import { RunList, runHref } from './runs.js';
import { AgentLinks } from './agents.js';

/** "the runs behind this line": the verdict's measure, the condition and its baseline. */
export function lineHref(condition: string, baseline: string, measure: string): string {
  return viewHref(['line', condition, baseline, measure]);
}

function verdictSection(b: BenchmarkFile | null): HTMLElement {
  if (!b)
    return h(
      'section',
      { id: 'verdict' },
      h(
        'p',
        { class: 'small' },
        'No benchmark.json yet: the verdict comes when the campaign is reported on.',
      ),
    );
  const lines = (b.verdicts ?? []).map((v) =>
    h(
      'li',
      {
        class: `verdict${v.significant ? ' sig' : ''}`,
        'data-measure': v.measure,
        'data-condition': v.condition,
      },
      h('span', { class: 'text' }, v.text),
      ' · ',
      h(
        'a',
        { href: lineHref(v.condition, v.baseline, v.measure), class: 'runs-behind' },
        'the runs behind this line',
      ),
    ),
  );
  const forest = verdictForest(b);
  return h(
    'section',
    { id: 'verdict' },
    h('h2', {}, 'Verdict'),
    ...firstLines(b),
    forest ? fromTree(forest) : null,
    lines.length === 0
      ? h('p', {}, 'No rate differs between the conditions.')
      : h('ul', {}, ...lines),
    ...behaviourPart(b),
  );
}

/** What the agent did: the clearest differences, and the rates' forest plot (as report.html). */
function behaviourPart(b: BenchmarkFile): HTMLElement[] {
  const s = b.behaviour;
  if (!s) return [];
  const forest = behaviourForest(s);
  const sentences =
    s.sentences.length > 0
      ? h('ul', {}, ...s.sentences.map((t) => h('li', { class: 'behaviour-sentence' }, t)))
      : h('p', { class: 'small' }, 'No behaviour differs clearly between the conditions.');
  return [
    h(
      'div',
      { id: 'behaviour' },
      h('h3', {}, 'What the agent did'),
      sentences,
      forest ? fromTree(forest) : null,
    ),
  ];
}

/** Per condition: how many runs each filter selects, each count a link to those runs. */
class ConditionTable {
  readonly element: HTMLElement;
  private readonly cells = new Map<string, HTMLElement>();
  private readonly counts = new Map<string, number>();
  private readonly table: HTMLElement;
  private rates: HTMLElement[] = [];

  constructor(
    info: CampaignInfo,
    private readonly names: readonly string[],
  ) {
    const body = Object.entries(FILTERS).map(([filter, f]) =>
      h(
        'tr',
        { 'data-filter': filter },
        h('th', {}, f.label),
        ...names.map((c) => {
          const q = new URLSearchParams({ condition: c });
          if (filter !== 'all') q.set('filter', filter);
          const a = h('a', { href: viewHref(['runs'], q) }, '0');
          this.cells.set(`${filter}\u0000${c}`, a);
          return h('td', { class: 'v', 'data-condition': c }, a);
        }),
      ),
    );
    this.table = h(
      'table',
      { id: 'conditions' },
      h('tr', {}, h('th', {}, ''), ...names.map((c) => h('th', {}, c))),
      ...body,
    );
    this.element = h('section', { id: 'per-condition' }, h('h2', {}, 'Per condition'), this.table);
    this.setRates(info.benchmark);
  }

  /** The rate rows of benchmark.json (replaced when a new one is written). */
  setRates(b: BenchmarkFile | null): void {
    for (const row of this.rates) row.remove();
    this.rates = b && b.conditions.length > 0 ? rateRows(b, this.names) : [];
    this.table.append(...this.rates);
  }

  /** Counts rows as they stream in (a live row replacing one is counted by `recount`). */
  add(rows: readonly RunRow[]): void {
    for (const r of rows) {
      for (const [filter, f] of Object.entries(FILTERS)) {
        if (!f.test(r)) continue;
        const key = `${filter}\u0000${r.condition}`;
        this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
      }
    }
    for (const [key, a] of this.cells) a.textContent = String(this.counts.get(key) ?? 0);
  }

  recount(rows: Iterable<RunRow>): void {
    this.counts.clear();
    this.add([...rows]);
  }
}

function rateRows(b: BenchmarkFile, names: readonly string[]): HTMLElement[] {
  const first = b.conditions[0]!;
  return Object.entries(first.measures)
    .filter(([, s]) => 'rate' in s)
    .map(([measure]) =>
      h(
        'tr',
        { 'data-measure': measure },
        h(
          'th',
          { title: measure },
          MEASURE_LABELS[measure as keyof typeof MEASURE_LABELS] ?? measure,
        ),
        ...names.map((c) => {
          const s = b.conditions.find((x) => x.condition === c)?.measures[
            measure as keyof typeof first.measures
          ];
          return h(
            'td',
            { class: 'v' },
            s && 'rate' in s ? `${pct(s.rate)} (${s.successes}/${s.n})` : '',
          );
        }),
      ),
    );
}

function conditionNames(info: CampaignInfo): string[] {
  return (
    info.benchmark?.conditions.map((c) => c.condition) ??
    info.conditions?.conditions.map((c) => c.name) ??
    []
  );
}

/**
 * The campaign's first screen: the verdict and the conditions at once, then every run as the
 * rows stream in; live afterwards (a run that finishes is added without a reload).
 */
export async function overviewPage(q: URLSearchParams, listOnly: boolean): Promise<void> {
  const info = await campaignInfo();
  const name = info.benchmark?.campaign ?? info.conditions?.campaign ?? '';
  document.getElementById('campaign')!.textContent = name;
  const list = new RunList(q);
  const table = new ConditionTable(info, conditionNames(info));
  const agents = new AgentLinks();
  let verdict = verdictSection(info.benchmark);
  if (listOnly) mount(h('h1', {}, 'Runs'), list.element);
  else
    mount(
      h('h1', {}, name),
      verdict,
      agents.element,
      table.element,
      h('h2', {}, 'Runs'),
      list.element,
    );
  const seen = new Map<string, RunRow>();
  const live = document.getElementById('live')!;
  // Listening first: a run that finishes while the list streams is told, not missed.
  listen(
    (row) => {
      seen.set(rowKey(row), row);
      list.upsert(row);
      table.recount(seen.values());
      agents.update(seen.values());
      live.textContent = `· live: ${row.eval} / ${row.condition} / run-${row.run} finished`;
    },
    () =>
      void campaignInfo().then((fresh) => {
        // The new verdict and rates in place of the old: the run list and its counts stay.
        const next = verdictSection(fresh.benchmark);
        verdict.replaceWith(next);
        verdict = next;
        table.setRates(fresh.benchmark);
        live.textContent = '· live: benchmark.json updated, verdict redrawn';
      }),
  );
  live.textContent = '· live';
  await streamRows((rows) => {
    const fresh = rows.filter((r) => !seen.has(rowKey(r)));
    for (const r of fresh) seen.set(rowKey(r), r);
    list.add(fresh);
    table.add(fresh);
    agents.update(seen.values());
  });
  list.element.setAttribute('data-loaded', '');
}

/** The runs behind a verdict line: each run number side by side under the two conditions. */
export async function linePage(
  condition: string,
  baseline: string,
  measure: string,
): Promise<void> {
  const [info, rows] = await Promise.all([campaignInfo(), runRows()]);
  const verdict = info.benchmark?.verdicts?.find(
    (v) => v.condition === condition && v.baseline === baseline && v.measure === measure,
  );
  const value = (r: RunRow | undefined): string => {
    if (!r) return 'no run';
    const v = r.measures[measure];
    return v === null || v === undefined ? 'n/a' : String(v);
  };
  const evals = [...new Set(rows.map((r) => r.eval))];
  const trs: HTMLElement[] = [];
  for (const e of evals) {
    const numbers = [
      ...new Set(
        rows
          .filter((r) => r.eval === e && (r.condition === condition || r.condition === baseline))
          .map((r) => r.run),
      ),
    ].sort((a, b) => a - b);
    for (const n of numbers) {
      const a = rows.find((r) => r.eval === e && r.condition === baseline && r.run === n);
      const b = rows.find((r) => r.eval === e && r.condition === condition && r.run === n);
      trs.push(
        h(
          'tr',
          { class: 'line-run', 'data-eval': e, 'data-run': n },
          h('td', {}, `${e} / run-${String(n).padStart(2, '0')}`),
          h('td', { class: 'v' }, a ? h('a', { href: runHref(a) }, value(a)) : 'no run'),
          h('td', { class: 'v' }, b ? h('a', { href: runHref(b) }, value(b)) : 'no run'),
          h(
            'td',
            {},
            h(
              'a',
              { href: viewHref(['pair', e, n, baseline, condition]), class: 'pair-link' },
              'side by side',
            ),
          ),
        ),
      );
    }
  }
  mount(
    h('h1', {}, `${measure}: ${condition} vs ${baseline}`),
    verdict ? h('p', { class: `verdict${verdict.significant ? ' sig' : ''}` }, verdict.text) : '',
    h(
      'table',
      { id: 'line-runs' },
      h(
        'tr',
        {},
        h('th', {}, 'eval / run'),
        h('th', {}, baseline),
        h('th', {}, condition),
        h('th', {}, ''),
      ),
      ...trs,
    ),
  );
}
