/**
 * The agent dimension of a matrix campaign (an eval set with `agents`): who is compared with
 * whom (each agent's conditions with that agent's copy of the baseline), and benchmark.json's
 * `agents`: each agent's baseline and conditions, the interaction of each condition with each
 * pair of agents on each rate (./interaction.ts), and the conditions that help one agent and
 * hurt another, said first.
 */
import type { ConditionsFile, DeepReadonly } from '../artifacts/index.js';
import type * as Benchmark from '../artifacts/schemas/benchmark.js';
import { RATE_MEASURES } from '../measure/index.js';
import { comparisonPairs, type GroupStats } from './benchmark.js';
import { effectOf, excludesZero, interactionOf } from './interaction.js';
import type { Verdict } from './verdict.js';
import { interactionText, oppositeText } from './matrix-words.js';

/** benchmark.json's `agents`. */
export type AgentsSection = DeepReadonly<NonNullable<Benchmark.BenchmarkFile['agents']>>;

type Cell = { readonly name: string; readonly base: string; readonly agent: string };

/** The conditions of a matrix with their place; empty for any other campaign. */
function cellsOf(file: Pick<ConditionsFile, 'conditions'>): Cell[] {
  return file.conditions.flatMap((c) => (c.matrix ? [{ name: c.name, ...c.matrix }] : []));
}

/**
 * The pairs to compare, [baseline, other]: in a matrix each agent's conditions with its own
 * baseline; else the baseline with every other condition (./benchmark.ts).
 */
export function pairsOf(
  file: Pick<ConditionsFile, 'conditions' | 'baseline_condition'>,
  names: readonly string[],
): Array<[string, string]> {
  const cells = cellsOf(file).filter((c) => names.includes(c.name));
  const baseline = cells.find((c) => c.name === file.baseline_condition);
  if (!baseline) return comparisonPairs(names, file.baseline_condition);
  const pairs: Array<[string, string]> = [];
  for (const c of cells) {
    if (c.base === baseline.base) continue;
    const own = cells.find((b) => b.base === baseline.base && b.agent === c.agent);
    if (own) pairs.push([own.name, c.name]);
  }
  return pairs;
}

/** The section, or undefined when the campaign is no matrix. */
export function agentsSection(
  file: Pick<ConditionsFile, 'conditions' | 'baseline_condition'>,
  groups: ReadonlyMap<string, Pick<GroupStats, 'measures'>>,
  verdicts: readonly Verdict[],
): AgentsSection | undefined {
  const cells = cellsOf(file).filter((c) => groups.has(c.name));
  const baseline = cells.find((c) => c.name === file.baseline_condition)?.base;
  if (baseline === undefined) return undefined;
  const agents = [...new Set(cells.map((c) => c.agent))];
  const bases = [...new Set(cells.map((c) => c.base))].filter((b) => b !== baseline);
  const nameOf = (base: string, agent: string) =>
    cells.find((c) => c.base === base && c.agent === agent)?.name;
  const interactions: AgentsSection['interactions'][number][] = [];
  for (const base of bases) {
    for (const measure of RATE_MEASURES) {
      const effects = new Map(
        agents.map((agent) => {
          const of = (b: string) => groups.get(nameOf(b, agent) ?? '')?.measures[measure];
          const cond = of(base);
          const own = of(baseline);
          return [agent, cond && own ? effectOf(cond, own) : null] as const;
        }),
      );
      agents.forEach((a, i) => {
        for (const b of agents.slice(i + 1)) {
          const ea = effects.get(a);
          const eb = effects.get(b);
          if (!ea || !eb) continue;
          const { difference, ci95 } = interactionOf(ea, eb);
          const entry = {
            condition: base,
            measure,
            agent_a: a,
            agent_b: b,
            effect_a: ea,
            effect_b: eb,
            difference,
            ci95,
            excludes_zero: excludesZero(ci95),
          };
          interactions.push({ ...entry, text: interactionText(entry) });
        }
      });
    }
  }
  return {
    baseline,
    agents: agents.map((agent) => ({
      agent,
      baseline: nameOf(baseline, agent)!,
      conditions: cells.filter((c) => c.agent === agent && c.base !== baseline).map((c) => c.name),
    })),
    interactions,
    opposite: oppositeOf(cells, verdicts),
  };
}

/**
 * Where a condition helps one agent and hurts another on a rate: each side's verdict
 * significant (Fisher's p < 0.05 and its interval excluding 0), as the agents' own verdict
 * lines say it.
 */
function oppositeOf(
  cells: readonly Cell[],
  verdicts: readonly Verdict[],
): AgentsSection['opposite'] {
  const place = new Map(cells.map((c) => [c.name, c]));
  const found = new Map<
    string,
    { condition: string; measure: string; helps: string[]; hurts: string[] }
  >();
  for (const v of verdicts) {
    const cell = place.get(v.condition);
    if (!cell || !v.significant) continue;
    const key = `${cell.base}\0${v.measure}`;
    let entry = found.get(key);
    if (!entry)
      found.set(key, (entry = { condition: cell.base, measure: v.measure, helps: [], hurts: [] }));
    (v.difference > 0 ? entry.helps : entry.hurts).push(cell.agent);
  }
  return [...found.values()]
    .filter((e) => e.helps.length > 0 && e.hurts.length > 0)
    .map((e) => ({ ...e, text: oppositeText(e) }));
}
