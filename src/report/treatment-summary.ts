import type { DeepReadonly } from '../artifacts/index.js';
import type * as Benchmark from '../artifacts/schemas/benchmark.js';
import type { ConditionCount, StagedCount } from './treatment-counts.js';
import type { UseSplitAccumulator } from './treatment-split.js';

/** One condition's treatment over its runs (benchmark.json's `treatment`). */
export type TreatmentSummary = DeepReadonly<Benchmark.TreatmentSummary>;

/**
 * A condition's summary: each staged file loaded (it reached the model) in how many runs,
 * and a skill used in how many. Loaded is not used: a model may be shown a skill and never
 * call it, and that is what a reader of a skill's effect needs to know first.
 *
 * @example
 * // text: "with_skill: the staged skill pr-flow loaded in 5/5 runs, used in 3/5"
 */
export function summaryOf(
  condition: string,
  c: ConditionCount,
  split: UseSplitAccumulator,
): TreatmentSummary {
  const entries = [...c.staged.values()];
  const skills = entries.filter((e) => e.kind === 'skill').map(nameOf);
  const byUse = skills.length > 0 ? split.split(condition, skills) : undefined;
  return {
    condition,
    runs: c.runs,
    loaded: c.reached,
    undecided: c.undecided,
    used: skills.length > 0 ? c.used : null,
    use_known: c.useKnown,
    staged: entries.map((e) => ({
      kind: e.kind,
      path: e.path,
      name: e.name,
      loads: e.loads,
      runs: e.runs,
      loaded: e.reached,
      undecided: e.undecided,
      used: e.kind === 'skill' ? e.used : null,
      use_known: e.useKnown,
    })),
    ...(byUse ? { by_use: byUse } : {}),
    text: `${condition}: ${entries.map(entryText).join('; ')}`,
  };
}

const nameOf = (e: StagedCount): string => e.name ?? e.path;

function entryText(e: StagedCount): string {
  const what = e.kind === 'skill' ? `skill ${nameOf(e)}` : e.path;
  const undecided = e.undecided > 0 ? ` (undecided in ${e.undecided})` : '';
  let text = `the staged ${what} loaded in ${e.reached}/${e.runs} runs${undecided}`;
  if (e.kind === 'skill' && e.useKnown > 0) {
    const unknown = e.runs - e.useKnown;
    text += `, used in ${e.used}/${e.useKnown}${unknown > 0 ? ` (not recorded in ${unknown})` : ''}`;
  }
  return text;
}
