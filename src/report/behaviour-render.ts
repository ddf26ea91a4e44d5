/**
 * The behaviour section of report.md and report.html: the clearest differences in sentences
 * first, the rates as a forest plot (report.html), then every figure per condition with each
 * condition's difference from the baseline.
 */
import type { BenchmarkFile } from './benchmark-file.js';
import { behaviourLabel, type BehaviourDifference } from './behaviour-words.js';
import { esc, formatNumber, formatRate } from './format.js';
import { forestTree } from './forest.js';
import { treeHtml, type TreeNode } from './tree.js';

type Section = NonNullable<BenchmarkFile['behaviour']>;

const HOW =
  "Read from each run's trajectory (the model gateway's tool calls, the gh record, the stops' diffs), never from the agent's stream; runs with no witnessed model call and runs the harness failed are left out. Rates: Wilson 95% intervals, differences with Newcombe's interval and Fisher's p; counts a run: mean ± sd, differences with Welch's interval and p. \"Ran the tests\": a shell command such as npm test, pytest, go test or node --test.";

/** Each figure's rows: the figure, each condition's value, and its differences' text. */
function rows(
  s: Section,
): { measure: string; cells: string[]; differences: BehaviourDifference[] }[] {
  const measures = [
    ...Object.keys(s.conditions[0]?.rates ?? {}),
    ...new Set(s.conditions.flatMap((c) => Object.keys(c.counts))),
  ];
  return measures.map((m) => ({
    measure: m,
    cells: s.conditions.map((c) =>
      c.rates[m] ? formatRate(c.rates[m]) : c.counts[m] ? formatNumber(c.counts[m]) : 'n/a',
    ),
    differences: s.differences.filter((d) => d.measure === m),
  }));
}

/** The forest plot of the rates' differences, or null when there is none to draw. */
export function behaviourForest(s: Section): TreeNode | null {
  const several = new Set(s.differences.map((d) => d.condition)).size > 1;
  const plotted = s.differences
    .filter((d) => d.kind === 'rate' && d.difference !== null)
    .map((d) => ({
      label: several ? `${d.condition}: ${behaviourLabel(d.measure)}` : behaviourLabel(d.measure),
      difference: d.difference!,
      ci: d.ci95 ? ([d.ci95[0], d.ci95[1]] as const) : null,
      significant: d.significant,
      key: `${d.condition}/${d.baseline}/${d.measure}`,
    }));
  return forestTree(
    'What the agent did: each condition minus the baseline, in points',
    plotted,
    'Rates of runs; a filled square is p < 0.05, a hollow circle could be chance.',
  );
}

export function behaviourMarkdown(b: BenchmarkFile): string[] {
  const s = b.behaviour;
  if (!s) return [];
  const head = [
    'figure',
    ...s.conditions.map((c) => `${c.condition} (${c.runs} runs)`),
    'difference',
  ];
  const body = rows(s).map((r) => [
    behaviourLabel(r.measure),
    ...r.cells,
    r.differences.map((d) => d.text).join('; ') || '',
  ]);
  const table = [head, head.map(() => '---'), ...body].map(
    (cells) => `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`,
  );
  return [
    '## What the agent did',
    '',
    ...(s.sentences.length > 0
      ? s.sentences.map((t) => `- **${t}**`)
      : ['No behaviour differs clearly between the conditions.']),
    '',
    ...table,
    '',
    HOW,
    '',
  ];
}

export function behaviourHtml(b: BenchmarkFile): string {
  const s = b.behaviour;
  if (!s) return '';
  const sentences =
    s.sentences.length > 0
      ? `<ul>${s.sentences.map((t) => `<li class="behaviour-sentence sig">${esc(t)}</li>`).join('')}</ul>`
      : '<p>No behaviour differs clearly between the conditions.</p>';
  const forest = behaviourForest(s);
  const head = `<tr><th>figure</th>${s.conditions.map((c) => `<th>${esc(c.condition)} (${c.runs} runs)</th>`).join('')}<th>difference</th></tr>`;
  const body = rows(s)
    .map(
      (r) =>
        `<tr data-measure="${esc(r.measure)}"><th>${esc(behaviourLabel(r.measure))}</th>${r.cells.map((c) => `<td class="v">${esc(c)}</td>`).join('')}<td class="small">${esc(r.differences.map((d) => d.text).join('; '))}</td></tr>`,
    )
    .join('');
  return `<section id="behaviour"><h2>What the agent did</h2>${sentences}${forest ? treeHtml(forest) : ''}<table>${head}${body}</table><p class="small">${esc(HOW)}</p></section>`;
}
