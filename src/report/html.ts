import type { AgentIdentity } from '../artifacts/index.js';
import { matrixVerdictHtml } from './matrix-render.js';
import { accountLines } from './account.js';
import { RATE_MEASURES, type NumberMeasure } from '../measure/index.js';
import {
  AGENT_MEASURES,
  agentMeasuresOf,
  numberMeasuresOf,
  agentDifference,
  agentStat,
  type AgentMeasure,
} from './benchmark.js';
import { namedDifferences, namedRates, rateOf } from './rate-families.js';
import type { BenchmarkFile } from './benchmark-file.js';
import {
  AGENT_LABELS,
  conditionAgentNames,
  formatDifference,
  formatNumber,
  formatP,
  formatRate,
  formatRateDifference,
  MEASURE_LABELS,
  num,
  percent,
} from './format.js';
import { esc } from './format.js';
import { gradingHtml } from './grading-render.js';
import { firstLinesHtml } from './first-lines.js';
import { codebaseLine, HOST_LOCAL_NOTE, ReportStructureError } from './markdown.js';
import type { NumberStats, RateStats } from './stats.js';
import type { RunTimeline, StopLine } from './timeline.js';
import type { ReviewFile } from './review-file.js';
import {
  conditionRunsRow,
  reviewsSection,
  runStepsLink,
  verdictRunsLink,
  VIEWER_NOTE,
} from './viewer-links.js';
import { verdictForest } from './verdict-forest.js';
import { treeHtml } from './tree.js';
import { behaviourHtml } from './behaviour-render.js';
import { failedChecksHtml } from './failed-checks-render.js';
import { costPerSuccessRow } from './cost-per-success.js';

import { embedKey } from './embed.js';
import { reuseLines, fingerprintRows } from './reuse.js';
import { sequentialLine } from './sequential.js';
import { perEvalDetailsHtml, withinEvalsNote } from './verdict-evals.js';
import { anyFailure, failuresCell, FAILURES_LABEL } from './failures.js';

/** Escapes text for HTML (in format.ts, beside the other helpers every page part shares). */
export { esc };

export const CSS = `
:root{--fg:#1d2330;--muted:#667085;--line:#d9dee7;--bg:#fff;--soft:#f5f7fa;--good:#1a7f4b;--bad:#c0362c;--accent:#2d5bd7}
*{box-sizing:border-box}
body{margin:0;padding:24px 32px;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 10px;border-bottom:1px solid var(--line);padding-bottom:4px}h3{font-size:14px;margin:16px 0 6px}
p.lead{color:var(--muted);margin:0 0 12px}
table{border-collapse:collapse;margin:6px 0 12px}
th,td{border:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top}
th{background:var(--soft);font-weight:600}
td.v{font-variant-numeric:tabular-nums;white-space:nowrap}
.small{font-size:12px;color:var(--muted)}
.pair{display:grid;grid-template-columns:1fr 1fr;gap:0 16px}.pair>div{min-width:0}
.charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(380px,1fr));gap:12px}
figure{margin:0;border:1px solid var(--line);border-radius:6px;padding:8px 10px}
figcaption{font-weight:600;margin-bottom:4px}
svg text{font:11px system-ui,sans-serif;fill:var(--fg)}
.note{background:#fff6e0;border:1px solid #f0d48a;padding:6px 10px;border-radius:4px}
details.run{border:1px solid var(--line);border-radius:6px;margin:6px 0;padding:4px 10px}
details.run summary{cursor:pointer}
.st-completed{color:var(--good)}.st-timed_out{color:#b26b00}.st-failed{color:var(--bad)}.st-broken{color:var(--bad)}
.stops{display:flex;flex-wrap:wrap;gap:8px;margin:6px 0}
.stop{border:1px solid var(--line);border-radius:5px;padding:4px 8px;background:var(--soft);min-width:180px;max-width:420px}
.stop.hand{border-color:var(--accent);box-shadow:inset 3px 0 0 var(--accent)}
.tag{display:inline-block;border-radius:3px;padding:0 5px;margin-right:3px;font-size:12px;background:#e8ebf1}
.ok{background:#dcf3e6;color:var(--good)}.ko{background:#fbe2df;color:var(--bad)}
ul.calls{margin:3px 0 0;padding-left:16px;font:12px ui-monospace,Menlo,Consolas,monospace}
ul.calls li.np{color:var(--bad)}
#verdict ul{margin:4px 0 8px;padding-left:18px}#verdict li{margin:2px 0}#verdict li.sig{font-weight:600}#verdict details.per-eval{font-weight:400}
.legend{display:flex;gap:14px;flex-wrap:wrap;margin:4px 0 8px}.swatch{display:inline-block;width:12px;height:12px;border-radius:2px;margin-right:5px;vertical-align:-1px}
.message{white-space:pre-wrap;border-left:3px solid var(--line);padding-left:6px;margin-top:3px}
blockquote{margin:4px 0 8px;padding:4px 10px;border-left:3px solid var(--line);background:var(--soft);white-space:pre-wrap}
pre.check-output{margin:4px 0 0;padding:4px 8px;background:var(--soft);font:12px ui-monospace,Menlo,Consolas,monospace;white-space:pre-wrap;overflow-wrap:anywhere;max-width:720px}
`;

/**
 * One colour per condition, in the order of benchmark.json's conditions: the
 * same condition has the same colour in every chart (colour-blind safe
 * palette, Okabe and Ito).
 */
export const CONDITION_COLOURS = [
  '#0072B2',
  '#E69F00',
  '#009E73',
  '#CC79A7',
  '#56B4E9',
  '#D55E00',
  '#F0E442',
  '#000000',
] as const;

/** The colour of a condition by its place among the campaign's conditions. */
export function conditionColour(b: BenchmarkFile, condition: string): string {
  const i = Math.max(
    0,
    b.conditions.findIndex((c) => c.condition === condition),
  );
  return CONDITION_COLOURS[i % CONDITION_COLOURS.length]!;
}

function legend(b: BenchmarkFile): string {
  return `<div class="legend">${b.conditions.map((c) => `<span data-condition="${esc(c.condition)}"><span class="swatch" style="background:${conditionColour(b, c.condition)}"></span>${esc(c.condition)}</span>`).join('')}</div>`;
}

/** The answer first: what differs, how sure, and where the runs are too few. */
function verdictSection(b: BenchmarkFile): string {
  const item = (v: NonNullable<BenchmarkFile['verdicts']>[number]) =>
    `<li class="verdict${v.significant ? ' sig' : ''}" data-measure="${esc(v.measure)}" data-condition="${esc(v.condition)}" data-p="${v.p_value ?? ''}"><span class="text">${esc(v.text)}</span>${verdictRunsLink(v)}${perEvalDetailsHtml(v)}</li>`;
  const lines = (b.verdicts ?? []).map(item);
  const warnings = (b.power_warnings ?? []).map(
    (w) =>
      `<p class="note power-warning" data-condition="${esc(w.condition)}">⚠ ${esc(w.condition)} vs ${esc(w.baseline)}: ${esc(w.text)}.</p>`,
  );
  const body =
    b.comparisons.length === 0
      ? '<p>Only one condition: nothing to compare.</p>'
      : b.agents
        ? matrixVerdictHtml(b.agents, b.verdicts ?? [], item)
        : lines.length === 0
          ? '<p>No rate differs between the conditions.</p>'
          : `<ul>${lines.join('')}</ul>`;
  const within = withinEvalsNote(b);
  const forest = verdictForest(b);
  const decided = b.sequential
    ? `<p class="verdict sequential" data-decision="${esc(b.sequential.decision)}">${esc(sequentialLine(b.sequential))}</p>`
    : '';
  return `<section id="verdict"><h2>Verdict</h2>${decided}${forest ? treeHtml(forest) : ''}${body}${warnings.join('')}<p class="small">Differences in points with their Newcombe 95% interval; p: Fisher's exact test, two-sided; bold: p &lt; 0.05; "could be chance": p ≥ 0.05.${within ? ` ${esc(within)}` : ''}</p>${lines.length > 0 ? VIEWER_NOTE : ''}</section>`;
}

/** The evals' prompts, later messages and expectations. */
function promptSection(b: BenchmarkFile): string {
  const prompts = b.prompts ?? [];
  if (prompts.length === 0) return '';
  const items = prompts.map((p) => {
    const turns = p.messages
      .map(
        (m, i) =>
          `<div class="small">turn ${i + 2} (${esc(m.phase)})</div><blockquote>${esc(m.message)}</blockquote>`,
      )
      .join('');
    const expectations =
      p.expectations && p.expectations.length > 0
        ? `<div class="small">expectations</div><ul class="expectations">${p.expectations.map((x) => `<li>${esc(x)}</li>`).join('')}</ul>`
        : '';
    return `<div class="eval-prompt" data-eval="${esc(p.eval)}"><h3>${esc(p.eval)}</h3><div class="small">prompt</div><blockquote>${esc(p.prompt)}</blockquote>${turns}${expectations}</div>`;
  });
  return `<section id="evals"><h2>Evals</h2>${items.join('')}</section>`;
}

function rateCell(condition: string, measure: string, s: RateStats): string {
  const ci = s.ci95 === null ? '' : ` data-lo="${s.ci95[0]}" data-hi="${s.ci95[1]}"`;
  return `<td class="v" data-condition="${esc(condition)}" data-measure="${esc(measure)}" data-rate="${s.rate ?? ''}" data-n="${s.n}" data-successes="${s.successes}"${ci}>${esc(formatRate(s))}</td>`;
}

function numberCell(
  condition: string,
  measure: NumberMeasure | `agent.${AgentMeasure}`,
  s: NumberStats,
): string {
  return `<td class="v" data-condition="${esc(condition)}" data-measure="${measure}" data-mean="${s.mean ?? ''}" data-n="${s.n}">${esc(formatNumber(s))}</td>`;
}

function conditionTable(b: BenchmarkFile): string {
  const conds = b.conditions;
  const head = `<tr><th>measure</th>${conds.map((c) => `<th>${esc(c.condition)}${c.condition === b.baseline_condition ? ' <span class="small">(baseline)</span>' : ''}</th>`).join('')}</tr>`;
  const rows = [
    `<tr><th>runs</th>${conds.map((c) => `<td class="v" data-condition="${esc(c.condition)}" data-measure="runs">${c.runs}</td>`).join('')}</tr>`,
    `<tr><th>completed / timed out / broken / failed</th>${conds.map((c) => `<td class="v">${c.status.completed} / ${c.status.timed_out} / ${c.status.broken} / ${c.status.failed}</td>`).join('')}</tr>`,
    anyFailure(conds)
      ? `<tr><th>${esc(FAILURES_LABEL)}</th>${conds.map((c) => `<td class="v">${esc(failuresCell(c))}</td>`).join('')}</tr>`
      : '',
    ...RATE_MEASURES.map(
      (m) =>
        `<tr><th>${esc(MEASURE_LABELS[m])}</th>${conds.map((c) => rateCell(c.condition, m, c.measures[m])).join('')}</tr>`,
    ),
    ...numberMeasuresOf(b).map(
      (m) =>
        `<tr><th>${esc(MEASURE_LABELS[m])}</th>${conds.map((c) => numberCell(c.condition, m, c.measures[m])).join('')}</tr>`,
    ),
    ...agentRow(b),
    ...agentMeasuresOf(b).map(
      (m) =>
        `<tr><th>${esc(AGENT_LABELS[m])}</th>${conds.map((c) => numberCell(c.condition, `agent.${m}`, agentStat(c.agent, m))).join('')}</tr>`,
    ),
    ...costPerSuccessHtml(b),
    ...namedRates(conds).map(
      (r) =>
        `<tr><th>${esc(r.label)}</th>${conds.map((c) => rateCell(c.condition, r.measure, rateOf(c, r))).join('')}</tr>`,
    ),
    conditionRunsRow(conds.map((c) => c.condition)),
  ];
  return `<table id="conditions">${head}${rows.join('')}</table>${VIEWER_NOTE}`;
}

/** The row naming each condition's agent, in a campaign that plays several (as report.md's). */
function agentRow(b: BenchmarkFile): string[] {
  const conds = b.conditions.map((c) => c.condition);
  const names = conditionAgentNames(b.provenance.agents, conds);
  if (!names) return [];
  const cells = names.map(
    (n, i) =>
      `<td class="v" data-condition="${esc(conds[i]!)}" data-measure="agent">${esc(n)}</td>`,
  );
  return [`<tr><th>agent</th>${cells.join('')}</tr>`];
}

const CHART_W = 380;
const LABEL_W = 110;
const ROW_H = 26;

/** One horizontal row per condition: a bar to the value, a whisker over its interval. */
function chart(
  measure: string,
  title: string,
  rows: ReadonlyArray<{
    label: string;
    colour: string;
    value: number | null;
    lo: number | null;
    hi: number | null;
    band?: [number, number];
    text: string;
  }>,
  max: number,
  axis: (v: number) => string,
  legend: string,
): string {
  const plotW = CHART_W - LABEL_W - 60;
  const x = (v: number): number =>
    LABEL_W + (max <= 0 ? 0 : (Math.min(Math.max(v, 0), max) / max) * plotW);
  const h = rows.length * ROW_H + 24;
  const parts: string[] = [];
  for (const [i, r] of rows.entries()) {
    const y = i * ROW_H + 6;
    const mid = y + 8;
    parts.push(`<text x="${LABEL_W - 6}" y="${mid + 4}" text-anchor="end">${esc(r.label)}</text>`);
    if (r.value === null) {
      parts.push(`<text x="${LABEL_W + 4}" y="${mid + 4}" fill="#667085">n/a (n 0)</text>`);
      continue;
    }
    parts.push(
      `<rect class="bar" data-condition="${esc(r.label)}" x="${LABEL_W}" y="${y + 2}" width="${(x(r.value) - LABEL_W).toFixed(1)}" height="12" fill="${r.colour}" fill-opacity="0.55"/>`,
    );
    if (r.band) {
      parts.push(
        `<rect x="${x(r.band[0]).toFixed(1)}" y="${y + 5}" width="${(x(r.band[1]) - x(r.band[0])).toFixed(1)}" height="6" fill="${r.colour}"/>`,
      );
    }
    if (r.lo !== null && r.hi !== null) {
      const [a, b] = [x(r.lo).toFixed(1), x(r.hi).toFixed(1)];
      parts.push(
        `<line x1="${a}" x2="${b}" y1="${mid}" y2="${mid}" stroke="#1d2330" stroke-width="1.5"/>`,
      );
      parts.push(
        `<line x1="${a}" x2="${a}" y1="${mid - 5}" y2="${mid + 5}" stroke="#1d2330" stroke-width="1.5"/>`,
      );
      parts.push(
        `<line x1="${b}" x2="${b}" y1="${mid - 5}" y2="${mid + 5}" stroke="#1d2330" stroke-width="1.5"/>`,
      );
    }
    parts.push(`<text x="${LABEL_W + plotW + 6}" y="${mid + 4}">${esc(r.text)}</text>`);
  }
  const axisY = rows.length * ROW_H + 8;
  parts.push(
    `<line x1="${LABEL_W}" x2="${LABEL_W + plotW}" y1="${axisY}" y2="${axisY}" stroke="#d9dee7"/>`,
  );
  parts.push(
    `<text x="${LABEL_W}" y="${axisY + 13}" text-anchor="middle" fill="#667085">${esc(axis(0))}</text>`,
  );
  parts.push(
    `<text x="${LABEL_W + plotW}" y="${axisY + 13}" text-anchor="middle" fill="#667085">${esc(axis(max))}</text>`,
  );
  return `<figure data-chart="${esc(measure)}"><figcaption>${esc(title)}</figcaption><svg role="img" width="${CHART_W}" height="${h}" viewBox="0 0 ${CHART_W} ${h}"><title>${esc(title)}</title>${parts.join('')}</svg><div class="small">${esc(legend)}</div></figure>`;
}

function rateChart(
  b: BenchmarkFile,
  measure: string,
  title: string,
  of: (c: BenchmarkFile['conditions'][number]) => RateStats,
): string {
  const rows = b.conditions.map((c) => {
    const s = of(c);
    return {
      label: c.condition,
      colour: conditionColour(b, c.condition),
      value: s.rate,
      lo: s.ci95?.[0] ?? null,
      hi: s.ci95?.[1] ?? null,
      text: percent(s.rate),
    };
  });
  return chart(
    measure,
    title,
    rows,
    1,
    (v) => `${v * 100}%`,
    'bar: rate; whisker: Wilson 95% interval',
  );
}

function charts(b: BenchmarkFile): string {
  const out: string[] = [];
  for (const m of RATE_MEASURES) {
    out.push(rateChart(b, m, MEASURE_LABELS[m], (c) => c.measures[m]));
  }
  for (const m of numberMeasuresOf(b)) {
    out.push(numberChart(b, m, MEASURE_LABELS[m], (c) => c.measures[m]));
  }
  for (const m of agentMeasuresOf(b)) {
    out.push(numberChart(b, `agent.${m}`, AGENT_LABELS[m], (c) => agentStat(c.agent, m)));
  }
  for (const r of namedRates(b.conditions)) {
    out.push(rateChart(b, r.measure, r.label, (c) => rateOf(c, r)));
  }
  return `${legend(b)}<div class="charts">${out.join('')}</div>`;
}

/** A number's chart: its mean per condition, with its spread. */
function numberChart(
  b: BenchmarkFile,
  measure: string,
  title: string,
  of: (c: BenchmarkFile['conditions'][number]) => NumberStats,
): string {
  const stats = b.conditions.map(of);
  const max = Math.max(0, ...stats.map((s) => s.max ?? 0));
  const rows = b.conditions.map((c) => {
    const s = of(c);
    const band: [number, number] | undefined =
      s.mean === null || s.stddev === null
        ? undefined
        : [Math.max(s.mean - s.stddev, s.min ?? 0), Math.min(s.mean + s.stddev, s.max ?? 0)];
    return {
      label: c.condition,
      colour: conditionColour(b, c.condition),
      value: s.mean,
      lo: s.min,
      hi: s.max,
      ...(band ? { band } : {}),
      text: num(s.mean),
    };
  });
  return chart(
    measure,
    title,
    rows,
    max,
    (v) => num(v),
    'bar: mean; band: ± stddev; whisker: min–max',
  );
}

function comparisons(b: BenchmarkFile): string {
  if (b.comparisons.length === 0) return '<p>Only one condition: nothing to compare.</p>';
  return b.comparisons
    .map((cmp) => {
      const rows = [
        ...RATE_MEASURES.map((m) => {
          const d = cmp.measures[m];
          return `<tr><th>${esc(MEASURE_LABELS[m])}</th><td class="v" data-measure="${m}" data-difference="${d.difference ?? ''}">${esc(formatRateDifference(d))}</td><td class="v" data-p="${d.p_value ?? ''}">${esc(formatP(d.p_value))}</td></tr>`;
        }),
        ...namedDifferences(cmp).map(
          ({ label, measure, difference: d }) =>
            `<tr><th>${esc(label)}</th><td class="v" data-measure="${esc(measure)}" data-difference="${d.difference ?? ''}">${esc(formatRateDifference(d))}</td><td class="v" data-p="${d.p_value ?? ''}">${esc(formatP(d.p_value))}</td></tr>`,
        ),
        ...numberMeasuresOf(b).map((m) => {
          const d = cmp.measures[m];
          return `<tr><th>${esc(MEASURE_LABELS[m])}</th><td class="v" data-measure="${m}" data-difference="${d.difference ?? ''}">${esc(formatDifference(d.difference, 'number'))}</td><td></td></tr>`;
        }),
        ...agentMeasuresOf(b).map((m) => {
          const d = agentDifference(cmp.agent, m);
          return `<tr><th>${esc(AGENT_LABELS[m])}</th><td class="v" data-measure="agent.${m}" data-difference="${d.difference ?? ''}">${esc(formatDifference(d.difference, 'number'))}</td><td></td></tr>`;
        }),
      ];
      return `<h3>${esc(cmp.condition)} vs ${esc(cmp.baseline)}</h3><table class="comparison" data-baseline="${esc(cmp.baseline)}" data-condition="${esc(cmp.condition)}"><tr><th>measure</th><th>difference [Newcombe 95% interval]</th><th>Fisher's exact p</th></tr>${rows.join('')}</table>`;
    })
    .join('');
}

function stopBox(s: StopLine): string {
  if (s.missing) return `<div class="stop"><span class="tag ko">stop file missing</span></div>`;
  const tags: string[] = [
    `<span class="tag">turn ${s.turn}</span>`,
    `<span class="tag">${esc(s.phase)}</span>`,
  ];
  tags.push(
    `<span class="tag"${s.hand_over ? ' title="hands over"' : ''}>${esc(s.kind ?? 'no kind')}${s.hand_over ? ' ⇥' : ''}</span>`,
  );
  let pr = '<span class="tag">no PR</span>';
  if (s.pull) {
    const draft = s.pull.draft
      ? '<span class="tag ok">draft</span>'
      : '<span class="tag ko">ready</span>';
    const described =
      s.pull.described === null
        ? '<span class="tag">described ?</span>'
        : s.pull.described
          ? '<span class="tag ok">described</span>'
          : '<span class="tag ko">stale description</span>';
    pr = `<span class="tag">PR #${s.pull.number} ${esc(s.pull.state.toLowerCase())}</span>${draft}${described}`;
  }
  const calls = s.calls
    .map(
      (c) =>
        `<li${c.played ? '' : ' class="np"'}>${esc(c.args)} · exit ${c.exit_code}${c.played ? '' : ' (not played)'}${c.marks_ready ? ' (marks ready)' : ''}</li>`,
    )
    .join('');
  const more =
    s.calls_total > s.calls.length ? `<li>… ${s.calls_total - s.calls.length} more</li>` : '';
  const said =
    s.final_message === null || s.final_message === undefined
      ? ''
      : `<div class="small message" title="the agent's final message">${esc(s.final_message)}</div>`;
  return `<div class="stop${s.hand_over ? ' hand' : ''}"><div>${tags.join('')}</div><div>${pr}</div>${s.agent ? agentLine(s.agent) : ''}${said}<div class="small">${s.calls_total} gh call${s.calls_total === 1 ? '' : 's'}</div>${calls || more ? `<ul class="calls">${calls}${more}</ul>` : ''}</div>`;
}

function agentLine(a: NonNullable<StopLine['agent']>): string {
  const cost = a.cost_usd === null ? 'cost n/a' : `$${num(a.cost_usd)}`;
  const failed = a.tool_calls_failed > 0 ? ` (${a.tool_calls_failed} failed)` : '';
  // A refused call never ran: said as a flag, apart from the ones that ran and failed.
  const refused =
    a.tool_calls_refused > 0
      ? `<div class="small refused"><span class="tag ko">⚠ ${a.tool_calls_refused} tool call${a.tool_calls_refused === 1 ? '' : 's'} refused by the agent</span></div>`
      : '';
  const error =
    a.error === null
      ? ''
      : `<div class="small"><span class="tag ko">agent error</span>${esc(a.error)}</div>`;
  return `<div class="small agent">${a.tool_calls} tool call${a.tool_calls === 1 ? '' : 's'}${failed} · ${a.model_requests} model request${a.model_requests === 1 ? '' : 's'} · ${a.tokens_in} in / ${a.tokens_out} out tokens · ${esc(cost)}</div>${refused}${error}`;
}

/** The run's files, as relative links (only the ones that exist). */
function fileLinks(files: RunTimeline['files']): string {
  if (files.length === 0) return '';
  const links = files.map(
    (f) => `<a class="file" href="${esc(campaignHref(f.path.split('/')))}">${esc(f.label)}</a>`,
  );
  return `<p class="files small">files: ${links.join(' · ')}</p>`;
}

function timelines(
  runs: readonly RunTimeline[],
  notShown: number,
  embedded: ReadonlyMap<string, string>,
): string {
  const items = runs.map((r) => {
    const id = `${r.eval} / ${r.condition} / run-${String(r.run).padStart(2, '0')}`;
    const stops =
      r.stops.length === 0
        ? '<p class="small">No stop reached.</p>'
        : `<div class="stops">${r.stops.map(stopBox).join('')}</div>`;
    const error = r.error ? `<p class="small">${esc(r.error)}</p>` : '';
    const sah = r.stopped_at_hand_over ? ' <span class="small">(stopped at hand over)</span>' : '';
    const checks =
      r.message_checks.length === 0
        ? ''
        : `<p class="small message-checks">message checks: ${r.message_checks
            .map(
              (c) =>
                `<span class="tag${c.passed === null ? '' : c.passed ? ' ok' : ' ko'}" data-check="${esc(c.name)}" data-passed="${c.passed ?? ''}">${esc(c.name)} ${c.passed === null ? 'n/a' : c.passed ? 'passed' : 'failed'}</span>`,
            )
            .join('')}</p>`;
    return `<details class="run" open><summary>${esc(id)} <span class="st-${r.status}">${r.status.replace('_', ' ')}</span>${sah}</summary>${error}${fileLinks(r.files)}<p class="small">${runStepsLink(r)}</p>${checks}${stops}${embedded.get(embedKey(r)) ?? ''}</details>`;
  });
  const more =
    notShown > 0
      ? `<p class="small" id="more-runs">${notShown} more run${notShown === 1 ? '' : 's'} not shown; every run is counted in the numbers above.</p>`
      : '';
  return `${items.join('')}${more}`;
}

/** An agent's provenance row: package, version, binary hash, model, as BASELINE.md has them. */
function agentProvenance(label: string, a: AgentIdentity): [string, string] {
  const model = a.model ? `, model ${a.model}` : '';
  const r = a.runtime;
  const node = r ? `, on ${r.package}@${r.version} sha256 ${r.sha256}` : '';
  return [label, `${a.package}@${a.version} (binary sha256 ${a.binary_sha256}${model}${node})`];
}

function provenance(b: BenchmarkFile): string {
  const p = b.provenance;
  const rows: Array<[string, string]> = [
    ['eval set', `${p.eval_set.name} (${p.eval_set.path}) sha256 ${p.eval_set.sha256}`],
    ...p.codebases.map((c): [string, string] => [
      `codebase (${c.evals.join(', ')})`,
      codebaseLine(c),
    ]),
    ['image', `${p.image.tag} ${p.image.id}`],
    ['gh stand-in sha256', p.stand_in_sha256],
    ...(p.agent ? [agentProvenance('agent', p.agent)] : []),
    ...Object.entries(p.agents ?? {}).map(([c, a]) => agentProvenance(`agent (${c})`, a)),
    ...fingerprintRows(p).map(([k, v]): [string, string] => [k!, v!]),
    ['evalrig', `${p.evalrig_version} (report ${p.report_evalrig_version})`],
    ['campaign created', p.campaign_created_at],
    ['report generated', p.generated_at],
  ];
  const reused = reuseLines(p, b.runs.total).map((l) => `<p class="note reused">${esc(l)}</p>`);
  const note = `${p.host_local ? `<p class="note">${esc(HOST_LOCAL_NOTE)}</p>` : ''}${reused.join('')}`;
  return `<table id="provenance">${rows.map(([k, v]) => `<tr><th>${esc(k)}</th><td>${esc(v)}</td></tr>`).join('')}</table>${note}`;
}

/**
 * report.html: one page, everything inline (CSS and SVG; no script, no
 * request): the per-condition table, a chart per measure with its intervals,
 * the comparisons, the provenance, and a timeline of the stops of each run shown.
 */
export function renderHtml(
  b: BenchmarkFile,
  runs: readonly RunTimeline[],
  notShown: number,
  reviews: readonly ReviewFile[] = [],
  embedded: ReadonlyMap<string, string> = new Map(),
): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>evalrig report: ${esc(b.campaign)}</title>
<style>${CSS}</style>
</head>
<body>
<h1>evalrig report: ${esc(b.campaign)}</h1>
<p class="lead">${b.runs.total} runs, baseline condition <b>${esc(b.baseline_condition)}</b>, generated ${esc(b.generated_at)}. Rates over the runs where the measure is known, with Wilson 95% intervals; runs the harness failed count in the status only; a failure while the agent had control counts against its condition.</p>
${firstLinesHtml(b)}${verdictSection(b)}${behaviourHtml(b)}${accountSection(b)}
<section id="per-condition"><h2>Per condition</h2>${conditionTable(b)}</section>
${failedChecksHtml(b)}
<section id="charts"><h2>Measures</h2>${charts(b)}</section>
<section id="comparisons"><h2>Comparisons</h2>${comparisons(b)}</section>
${promptSection(b)}
${gradingHtml(b.grading)}
${reviewsSection(reviews)}
<section id="provenance-section"><h2>Provenance</h2>${provenance(b)}</section>
<section id="runs"><h2>Runs</h2><p class="small">Each box is a stop, in turn order; ⇥ and a blue edge: the stop hands over. PR: the branch's pull request at that stop; described: its description is the one the description probe printed then.</p>${timelines(runs, notShown, embedded)}</section>
</body>
</html>
`;
}

/** The campaign's account on the first screen: what it cost, at list prices, and its times. */
function accountSection(b: BenchmarkFile): string {
  if (!b.account) return '';
  const items = accountLines(b.account).map((l) => `<li>${esc(l)}</li>`);
  return `<section id="account"><h2>Account</h2><ul class="small">${items.join('')}</ul></section>\n`;
}

/**
 * A relative link to a file under the campaign folder: encoded path segments
 * only (no scheme, no host, no leading slash, no query), none of them . or ..
 *
 * @example
 * isCampaignLink('runs/fix-bug/with_skill/run-01/run.json'); // true
 * isCampaignLink('../secret'); // false
 */
export function isCampaignLink(href: string): boolean {
  if (!/^[A-Za-z0-9._~%-]+(\/[A-Za-z0-9._~%-]+)*$/.test(href)) return false;
  return href.split('/').every((segment) => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return false;
    }
    return decoded !== '.' && decoded !== '..' && !/[/\\]/.test(decoded);
  });
}

/** A path relative to the page's folder, as an href. */
export function campaignHref(relative: readonly string[]): string {
  // encodeURIComponent leaves !'()* as they are: encode them too, so a link is only [A-Za-z0-9._~%-].
  return relative
    .map((segment) =>
      encodeURIComponent(segment).replace(
        /[!'()*]/g,
        (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
      ),
    )
    .join('/');
}

const BALANCED = [
  'html',
  'head',
  'body',
  'section',
  'table',
  'tr',
  'td',
  'th',
  'svg',
  'figure',
  'details',
  'summary',
  'div',
  'ul',
  'li',
  'p',
  'style',
  'a',
  'blockquote',
  'pre',
  'code',
];

/** Asserts each container tag a page of evalrig's may hold is closed as often as opened. */
export function checkBalanced(file: string, html: string): void {
  for (const tag of BALANCED) {
    const open = html.match(new RegExp(`<${tag}[\\s>]`, 'g'))?.length ?? 0;
    const close = html.match(new RegExp(`</${tag}>`, 'g'))?.length ?? 0;
    if (open !== close)
      throw new ReportStructureError(file, `<${tag}> opened ${open} times, closed ${close}`);
  }
}

/**
 * Asserts what makes the page self-contained and well formed: a doctype, no
 * script or stylesheet from elsewhere, no attribute pointing off the page,
 * container tags balanced, and one chart per measure.
 */
export function checkHtml(
  file: string,
  html: string,
  charted: {
    readonly agentMeasures?: number;
    readonly numberMeasures?: number;
    readonly namedRates?: number;
  } = {},
): void {
  if (!html.startsWith('<!doctype html>')) throw new ReportStructureError(file, 'no doctype');
  // Text is escaped, so a tag here is one evalrig wrote; CSS lives in <style> and style="".
  const css = [...html.matchAll(/<style>([^<]*)<\/style>|\sstyle="([^"]*)"/g)]
    .map((m) => m[1] ?? m[2] ?? '')
    .join('\n');
  if (
    /<script\b|<link\b|<iframe\b|<img\b|<object\b|<embed\b/i.test(html) ||
    /@import|url\(/i.test(css)
  ) {
    throw new ReportStructureError(
      file,
      'it would load something (script, link, frame, image, import or url())',
    );
  }
  const attr = /\s(src|href|action|srcset|poster|formaction|xlink:href)\s*=\s*"([^"]*)"/gi;
  for (const m of html.matchAll(attr)) {
    const value = m[2]!;
    // A run's own files are linked relatively, below the page's folder; nothing else leaves it.
    if (value.startsWith('#') || (m[1] === 'href' && isCampaignLink(value))) continue;
    throw new ReportStructureError(file, `attribute ${m[1]}="${value}" points off the page`);
  }
  checkBalanced(file, html);
  const charts = html.match(/<figure data-chart="/g)?.length ?? 0;
  const expected =
    RATE_MEASURES.length +
    (charted.numberMeasures ?? numberMeasuresOf({ conditions: [] }).length) +
    (charted.agentMeasures ?? AGENT_MEASURES.length) +
    (charted.namedRates ?? 0);
  if (charts !== expected)
    throw new ReportStructureError(file, `${charts} charts, expected ${expected}`);
}

/** The cost-per-success row of the per-condition table, when there is one. */
function costPerSuccessHtml(b: BenchmarkFile): string[] {
  const row = costPerSuccessRow(b);
  if (!row) return [];
  const cells = row.cells.map(
    (v, i) =>
      `<td class="v" data-condition="${esc(b.conditions[i]!.condition)}" data-measure="cost_per_success">${esc(v)}</td>`,
  );
  return [`<tr><th>${esc(row.label)}</th>${cells.join('')}</tr>`];
}
