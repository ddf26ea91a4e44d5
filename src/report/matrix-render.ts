/**
 * A matrix campaign's verdict in report.md and report.html: first the conditions that help one
 * agent and hurt another, then each agent's verdict lines under its name (its conditions
 * against its own baseline), then the interaction lines of each pair of agents whose effects
 * differ, those whose interval excludes 0 first.
 */
import type { BenchmarkFile } from './benchmark-file.js';
import { esc } from './format.js';
import type { AgentsSection } from './matrix.js';

type Verdict = NonNullable<BenchmarkFile['verdicts']>[number];

const INTERVAL_NOTE =
  "Interactions: (A's condition − A's baseline) − (B's condition − B's baseline), in points, 95% interval by MOVER over the two agents' Newcombe intervals.";

/** The interaction lines worth a line: the effects differ; the clearest first. */
function shownInteractions(a: AgentsSection): AgentsSection['interactions'] {
  return a.interactions
    .filter((i) => i.difference !== 0)
    .toSorted((x, y) => Number(y.excludes_zero) - Number(x.excludes_zero));
}

/** Each agent with its verdicts, in the matrix's order. */
function byAgent(a: AgentsSection, verdicts: readonly Verdict[]) {
  return a.agents.map((agent) => ({
    ...agent,
    verdicts: verdicts.filter((v) => agent.conditions.includes(v.condition)),
  }));
}

/** report.md's verdict lines of a matrix; `line` renders one verdict as the plain report does. */
export function matrixVerdictMarkdown(
  a: AgentsSection,
  verdicts: readonly Verdict[],
  line: (v: Verdict) => string,
): string[] {
  const parts: string[] = [];
  for (const o of a.opposite) parts.push(`- **${o.text}**`);
  if (a.opposite.length > 0) parts.push('');
  for (const agent of byAgent(a, verdicts)) {
    parts.push(`### ${agent.agent} (against ${agent.baseline})`, '');
    parts.push(
      ...(agent.verdicts.length > 0 ? agent.verdicts.map(line) : ['No rate differs.']),
      '',
    );
  }
  const shown = shownInteractions(a);
  parts.push('### Across agents', '');
  parts.push(
    ...(shown.length > 0
      ? shown.map((i) => `- ${i.excludes_zero ? '**' : ''}${i.text}${i.excludes_zero ? '**' : ''}`)
      : ['No condition’s effect differs between the agents.']),
    '',
    INTERVAL_NOTE,
    '',
  );
  return parts;
}

/** report.html's verdict list of a matrix; `item` renders one verdict as the plain report does. */
export function matrixVerdictHtml(
  a: AgentsSection,
  verdicts: readonly Verdict[],
  item: (v: Verdict) => string,
): string {
  const opposite = a.opposite
    .map(
      (o) =>
        `<p class="verdict opposite sig" data-condition="${esc(o.condition)}" data-measure="${esc(o.measure)}">${esc(o.text)}</p>`,
    )
    .join('');
  const agents = byAgent(a, verdicts)
    .map(
      (agent) =>
        `<h3 data-agent="${esc(agent.agent)}">${esc(agent.agent)} <span class="small">(against ${esc(agent.baseline)})</span></h3>${agent.verdicts.length > 0 ? `<ul>${agent.verdicts.map(item).join('')}</ul>` : '<p>No rate differs.</p>'}`,
    )
    .join('');
  const shown = shownInteractions(a);
  const across = shown
    .map(
      (i) =>
        `<li class="interaction${i.excludes_zero ? ' sig' : ''}" data-condition="${esc(i.condition)}" data-measure="${esc(i.measure)}" data-agents="${esc(`${i.agent_a} ${i.agent_b}`)}">${esc(i.text)}</li>`,
    )
    .join('');
  return `${opposite}${agents}<h3>Across agents</h3>${across ? `<ul>${across}</ul>` : '<p>No condition’s effect differs between the agents.</p>'}<p class="small">${esc(INTERVAL_NOTE)}</p>`;
}
