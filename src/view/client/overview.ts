/// <reference lib="dom" />
import {
  campaignInfo,
  FILTERS,
  listen,
  runRows,
  type BenchmarkFile,
  type CampaignInfo,
  type RunRow,
} from './data.js';
import { h, mount, pct, viewHref } from './dom.js';
import { RunList, runHref } from './runs.js';

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
  const warnings = (b.treatment_warnings ?? []).map((w) =>
    h('p', { class: 'note' }, `⚠ ${w.text}.`),
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
  return h(
    'section',
    { id: 'verdict' },
    h('h2', {}, 'Verdict'),
    ...warnings,
    lines.length === 0
      ? h('p', {}, 'No rate differs between the conditions.')
      : h('ul', {}, ...lines),
  );
}

/** Per condition: how many runs each filter selects, each count a link to those runs. */
function conditionTable(info: CampaignInfo, rows: readonly RunRow[]): HTMLElement {
  const names = info.benchmark?.conditions.map((c) => c.condition) ??
    info.conditions?.conditions.map((c) => c.name) ?? [...new Set(rows.map((r) => r.condition))];
  const body = Object.entries(FILTERS).map(([filter, f]) =>
    h(
      'tr',
      { 'data-filter': filter },
      h('th', {}, f.label),
      ...names.map((c) => {
        const n = rows.filter((r) => r.condition === c && f.test(r)).length;
        const q = new URLSearchParams({ condition: c });
        if (filter !== 'all') q.set('filter', filter);
        return h(
          'td',
          { class: 'v', 'data-condition': c },
          h('a', { href: viewHref(['runs'], q) }, String(n)),
        );
      }),
    ),
  );
  const rates =
    (info.benchmark?.conditions ?? []).length === 0 ? [] : rateRows(info.benchmark!, names);
  return h(
    'section',
    { id: 'per-condition' },
    h('h2', {}, 'Per condition'),
    h(
      'table',
      { id: 'conditions' },
      h('tr', {}, h('th', {}, ''), ...names.map((c) => h('th', {}, c))),
      ...body,
      ...rates,
    ),
  );
}

function rateRows(b: BenchmarkFile, names: readonly string[]): HTMLElement[] {
  const first = b.conditions[0]!;
  return Object.entries(first.measures)
    .filter(([, s]) => 'rate' in s)
    .map(([measure]) =>
      h(
        'tr',
        { 'data-measure': measure },
        h('th', {}, measure),
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

/** The campaign's first screen: the verdict, the conditions, and every run, live. */
export async function overviewPage(q: URLSearchParams, listOnly: boolean): Promise<void> {
  const [info, rows] = await Promise.all([campaignInfo(), runRows()]);
  const name = info.benchmark?.campaign ?? info.conditions?.campaign ?? '';
  document.getElementById('campaign')!.textContent = name;
  const list = new RunList(rows, q);
  const table = conditionTable(info, rows);
  if (listOnly) mount(h('h1', {}, 'Runs'), list.element);
  else
    mount(
      h('h1', {}, name),
      verdictSection(info.benchmark),
      table,
      h('h2', {}, 'Runs'),
      list.element,
    );
  const live = document.getElementById('live')!;
  live.textContent = '· live';
  listen(
    (row) => {
      list.upsert(row);
      live.textContent = `· live: ${row.eval} / ${row.condition} / run-${row.run} finished`;
    },
    () => {
      live.textContent = '· live: benchmark.json updated (reload for the new verdict)';
    },
  );
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
