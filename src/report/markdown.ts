import { behaviourMarkdown } from './behaviour-render.js';
import { failedChecksMarkdown } from './failed-checks-render.js';
import { matrixVerdictMarkdown } from './matrix-render.js';
import { costPerSuccessRow } from './cost-per-success.js';
import { accountLines } from './account.js';
import type { AgentIdentity } from '../artifacts/index.js';
import { RATE_MEASURES } from '../measure/index.js';
import {
  agentMeasuresOf,
  agentDifference,
  agentStat,
  numberMeasuresOf,
  type CodebaseEntry,
} from './benchmark.js';
import { namedDifferences, namedRates, rateOf } from './rate-families.js';
import type { BenchmarkFile } from './benchmark-file.js';
import { serviceRows } from './services.js';
import { gradingMarkdown } from './grading-render.js';
import { firstLinesMarkdown } from './first-lines.js';
import { reuseLines, fingerprintRows } from './reuse.js';
import { anyFailure, failureRows, failuresCell, FAILURES_LABEL } from './failures.js';
import {
  AGENT_LABELS,
  formatDifference,
  formatNumber,
  formatP,
  formatRate,
  formatRateDifference,
  MEASURE_LABELS,
} from './format.js';
import { conditionAgentNames, table } from './format.js';
import { sequentialLine, sequentialRows } from './sequential.js';
import { perEvalVerdictsMarkdown, withinEvalsNote } from './verdict-evals.js';

/** A table cell's text (in format.ts, shared with the judge's section). */
export { cell } from './format.js';
/** The structure check of a page (in markdown-check.ts). */
export { checkMarkdown, ReportStructureError } from './markdown-check.js';

/** Where a codebase came from, as one line: "url @ ref → commit" or "path → commit". */
export function codebaseLine(c: CodebaseEntry): string {
  const from = c.url !== undefined ? `${c.url}${c.ref ? ` @ ${c.ref}` : ''}` : (c.path ?? c.kind);
  const flags = [c.host_local ? 'host-local' : '', c.dirty ? 'dirty' : ''].filter(Boolean);
  return `${from} → ${c.commit} (${c.branch})${flags.length ? ` [${flags.join(', ')}]` : ''}`;
}

export const HOST_LOCAL_NOTE =
  'host-local: not reproducible elsewhere (a codebase is a path on the machine that ran the campaign).';

/** The rows of one environment image: what its evals ran in, and what built it. */
function environmentRows(
  x: NonNullable<BenchmarkFile['provenance']['image']['environments']>[number],
): string[][] {
  const evals = x.evals.join(', ');
  const e = x.environment;
  return [
    [`image (${evals})`, `${x.image.tag} ${x.image.id}`],
    [
      `environment (${evals})`,
      `${e.tag} ${e.id} from ${e.dockerfile} (context ${e.context}) over ${e.base_image} ${e.base_id}`,
    ],
    [`environment sha256 (${evals})`, e.hash],
    [`setup (${evals})`, e.setup.length > 0 ? e.setup.join(' && ') : '(none)'],
  ];
}

/** The Node runtime a Node-bundled agent ran on: its package, version and binary's sha256. */
function runtimeRows(suffix: string, a: AgentIdentity): string[][] {
  if (!a.runtime) return [];
  const r = a.runtime;
  return [
    [`agent Node runtime${suffix}`, `${r.package}@${r.version}`],
    [`agent Node runtime sha256${suffix}`, r.sha256],
  ];
}

/** BASELINE.md: what the numbers were measured against, to tell whether two campaigns compare. */
export function renderBaseline(b: BenchmarkFile): string {
  const p = b.provenance;
  const rows: string[][] = [
    ['campaign', b.campaign],
    ['eval set', `${p.eval_set.name} (${p.eval_set.path})`],
    ['eval set sha256', p.eval_set.sha256],
    ...p.codebases.map((c) => [`codebase (${c.evals.join(', ')})`, codebaseLine(c)]),
    ['image', `${p.image.tag} ${p.image.id}`],
    ...(p.image.environments ?? []).flatMap((x) => environmentRows(x)),
    ...serviceRows(p.services),
    ...sequentialRows(b.sequential),
    ['gh stand-in sha256', p.stand_in_sha256],
    ...(p.agent
      ? [
          ['agent', `${p.agent.package}@${p.agent.version}`],
          ['agent binary sha256', p.agent.binary_sha256],
          ...(p.agent.relay_sha256 ? [['agent model relay sha256', p.agent.relay_sha256]] : []),
          ...runtimeRows('', p.agent),
          ...(p.agent.model ? [['agent model', p.agent.model]] : []),
          ...(p.agent.install ? [['agent install', p.agent.install]] : []),
          ...(p.agent.images ?? []).map((i) => [
            `agent image (from ${i.base})`,
            `${i.tag} ${i.id}`,
          ]),
        ]
      : []),
    ...Object.entries(p.agents ?? {}).flatMap(([name, a]) => [
      [`agent (${name})`, `${a.package}@${a.version}`],
      [`agent binary sha256 (${name})`, a.binary_sha256],
      ...runtimeRows(` (${name})`, a),
      ...(a.model ? [[`agent model (${name})`, a.model]] : []),
    ]),
    ...fingerprintRows(p),
    ...failureRows(b.conditions),
    ['evalrig (campaign)', p.evalrig_version],
    ['evalrig (report)', p.report_evalrig_version],
    ['campaign created', p.campaign_created_at],
    ['report generated', p.generated_at],
  ];
  const parts = [
    `# Baseline: ${b.campaign}`,
    '',
    'Provenance of every number in benchmark.json. Two campaigns compare when these match.',
    '',
    table(['what', 'value'], rows),
    '',
  ];
  if (p.codebases.length === 0)
    parts.push('No codebase: every eval ran on a fresh repository.', '');
  if (p.host_local) parts.push(`> ${HOST_LOCAL_NOTE}`, '');
  return parts.join('\n');
}

/** report.md: the per-condition table and the comparisons, for reading in a terminal or a review. */
export function renderReportMd(b: BenchmarkFile): string {
  const parts = [
    `# Report: ${b.campaign}`,
    '',
    ...firstLinesMarkdown(b),
    ...verdictLines(b),
    ...behaviourMarkdown(b),
    ...(b.account ? [...accountLines(b.account).map((l) => `- ${l}`), ''] : []),
    `${b.runs.total} runs${b.runs.without_record ? ` (${b.runs.without_record} more without a record yet)` : ''}; baseline condition \`${b.baseline_condition}\`. Rates: successes over runs where the measure is known, with a Wilson 95% interval; numbers: mean ± sample stddev (min–max, n). Agent numbers (tokens, cost, tool calls) come from each run's agent totals; runs of a command agent have none (n/a, n 0). Runs the harness failed count in the status only; a run that failed while the agent had control (its crash, a service it could reach dying, the model API, a time-out) counts against its condition: its checks not passed. Provenance: BASELINE.md.`,
    '',
    ...reuseLines(b.provenance, b.runs.total).flatMap((l) => [`> ${l}`, '']),
    '## Per condition',
    '',
    conditionTable(b),
    '',
    ...failedChecksMarkdown(b),
    '## Comparisons',
    '',
  ];
  parts.push(...comparisonLines(b));
  parts.push(...perEvalLines(b));
  parts.push(...engineLines(b));
  parts.push(...promptLines(b));
  parts.push(...gradingMarkdown(b.grading));
  return parts.join('\n');
}

/** report.md's per-condition table: one column per condition, one row per measure. */
function conditionTable(b: BenchmarkFile): string {
  const conds = b.conditions;
  const header = ['measure', ...conds.map((c) => c.condition)];
  const rows: string[][] = [
    ['runs', ...conds.map((c) => String(c.runs))],
    [
      'completed / timed out / broken / failed',
      ...conds.map(
        (c) =>
          `${c.status.completed} / ${c.status.timed_out} / ${c.status.broken} / ${c.status.failed}`,
      ),
    ],
    ...(anyFailure(conds) ? [[FAILURES_LABEL, ...conds.map(failuresCell)]] : []),
    ...RATE_MEASURES.map((m) => [
      MEASURE_LABELS[m],
      ...conds.map((c) => formatRate(c.measures[m])),
    ]),
    ...numberMeasuresOf(b).map((m) => [
      MEASURE_LABELS[m],
      ...conds.map((c) => formatNumber(c.measures[m])),
    ]),
    ...agentRows(b),
    ...agentMeasuresOf(b).map((m) => [
      AGENT_LABELS[m],
      ...conds.map((c) => formatNumber(agentStat(c.agent, m))),
    ]),
    ...costPerSuccessLines(b),
    ...namedRates(conds).map((r) => [r.label, ...conds.map((c) => formatRate(rateOf(c, r)))]),
  ];
  return table(header, rows);
}

/** report.md's comparisons: one table per (condition, baseline) pair. */
function comparisonLines(b: BenchmarkFile): string[] {
  const parts: string[] = [];
  if (b.comparisons.length === 0) parts.push('Only one condition: nothing to compare.', '');
  if (withinEvalsNote(b))
    parts.push('Over the runs pooled across evals; the verdict tests within evals.', '');
  for (const cmp of b.comparisons) {
    parts.push(`### ${cmp.condition} vs ${cmp.baseline}`, '');
    const cmpRows: string[][] = [
      ...RATE_MEASURES.map((m) => {
        const d = cmp.measures[m];
        return [MEASURE_LABELS[m], formatRateDifference(d), formatP(d.p_value)];
      }),
      ...namedDifferences(cmp).map(({ label, difference: d }) => [
        label,
        formatRateDifference(d),
        formatP(d.p_value),
      ]),
      ...numberMeasuresOf(b).map((m) => [
        MEASURE_LABELS[m],
        formatDifference(cmp.measures[m].difference, 'number'),
        '',
      ]),
      ...agentMeasuresOf(b).map((m) => [
        AGENT_LABELS[m],
        formatDifference(agentDifference(cmp.agent, m).difference, 'number'),
        '',
      ]),
    ];
    parts.push(
      table(
        ['measure', `difference (${cmp.condition} − ${cmp.baseline})`, "Fisher's exact p"],
        cmpRows,
      ),
      '',
    );
  }
  return parts;
}

/** report.md's per-eval tables: the rates, then the checks and message checks when there are any. */
function perEvalLines(b: BenchmarkFile): string[] {
  const parts: string[] = [];
  parts.push('## Per eval', '');
  const evalRows = b.evals.map((e) => [
    e.eval,
    e.condition,
    String(e.runs),
    ...RATE_MEASURES.map((m) => formatRate(e.measures[m])),
  ]);
  parts.push(
    table(['eval', 'condition', 'runs', ...RATE_MEASURES.map((m) => MEASURE_LABELS[m])], evalRows),
    '',
  );
  const named = namedRates(b.evals);
  if (named.length > 0) {
    parts.push(
      table(
        ['eval', 'condition', ...named.map((r) => r.label)],
        b.evals.map((e) => [e.eval, e.condition, ...named.map((r) => formatRate(rateOf(e, r)))]),
      ),
      '',
    );
  }
  parts.push(...perEvalVerdictsMarkdown(b));
  return parts;
}

/**
 * The answer first: a verdict line per rate that differs from the baseline,
 * then the warnings about too few runs. Empty when there is nothing to say.
 */
function verdictLines(b: BenchmarkFile): string[] {
  const line = (v: NonNullable<BenchmarkFile['verdicts']>[number]) =>
    `- ${v.significant ? '**' : ''}${v.text}${v.significant ? '**' : ''}`;
  const lines = (b.verdicts ?? []).map(line);
  const warnings = (b.power_warnings ?? []).map(
    (w) => `> ⚠ ${w.condition} vs ${w.baseline}: ${w.text}.`,
  );
  if (lines.length === 0 && warnings.length === 0 && b.comparisons.length === 0) return [];
  const decided = b.sequential ? [`- ${sequentialLine(b.sequential)}`] : [];
  return [
    '## Verdict',
    '',
    ...decided,
    ...(b.agents
      ? matrixVerdictMarkdown(b.agents, b.verdicts ?? [], line)
      : lines.length > 0
        ? lines
        : ['No rate differs between the conditions.']),
    '',
    ...warnings.flatMap((w) => [w, '']),
    'Differences: Newcombe 95% interval in points; p: Fisher\'s exact test, two-sided. "Could be chance": p ≥ 0.05.',
    '',
    ...(withinEvalsNote(b)
      ? [`${withinEvalsNote(b)} Each eval's own line: under Per eval.`, '']
      : []),
  ];
}

/** The runs of each condition by the engine they ran on (benchmark.json's `by_engine`). */
function engineLines(b: BenchmarkFile): string[] {
  const groups = b.by_engine ?? [];
  if (groups.length === 0) return [];
  const rows = groups.map((g) => [
    g.condition,
    `${g.engine} (${g.kind})`,
    String(g.runs),
    ...RATE_MEASURES.map((m) => formatRate(g.measures[m])),
  ]);
  return [
    '## Per engine',
    '',
    'The runs of each condition by the engine they ran on: rows of one condition whose intervals do not overlap would say an engine biases the result.',
    '',
    table(['condition', 'engine', 'runs', ...RATE_MEASURES.map((m) => MEASURE_LABELS[m])], rows),
    '',
  ];
}

/** The evals' prompts, later messages and expectations, quoted. */
function promptLines(b: BenchmarkFile): string[] {
  const prompts = b.prompts ?? [];
  if (prompts.length === 0) return [];
  const quoteBlock = (text: string): string[] => text.split('\n').map((l) => `> ${l}`.trimEnd());
  const out = ['## Evals', ''];
  for (const p of prompts) {
    out.push(`### ${p.eval}`, '', 'Prompt:', '', ...quoteBlock(p.prompt), '');
    p.messages.forEach((m, i) => {
      out.push(`Turn ${i + 2} (${m.phase}):`, '', ...quoteBlock(m.message), '');
    });
    if (p.expectations && p.expectations.length > 0) {
      out.push('Expectations:', '', ...p.expectations.map((x) => `- ${x.replace(/\n/g, ' ')}`), '');
    }
  }
  return out;
}

/** The row naming each condition's agent, in a campaign that plays several. */
function agentRows(b: BenchmarkFile): string[][] {
  const names = conditionAgentNames(
    b.provenance.agents,
    b.conditions.map((c) => c.condition),
  );
  return names ? [['agent', ...names]] : [];
}

/** The cost-per-success row of the per-condition table, when there is one. */
function costPerSuccessLines(b: BenchmarkFile): string[][] {
  const row = costPerSuccessRow(b);
  return row ? [[row.label, ...row.cells]] : [];
}
