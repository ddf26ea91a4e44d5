import type { DeepReadonly, RunRecord } from '../artifacts/index.js';
import type * as Benchmark from '../artifacts/schemas/benchmark.js';
import { inConditionOrder } from './order.js';
import type { ConditionCount, StagedCount } from './treatment-counts.js';
import { summaryOf, type TreatmentSummary } from './treatment-summary.js';
import { UseSplitAccumulator, type SplitRun } from './treatment-split.js';
import { leftOut } from '../measure/index.js';

/** A condition whose staged instructions did not reach the model in every run (benchmark.json's `treatment_warnings`). */
export type TreatmentWarning = NonNullable<
  DeepReadonly<Benchmark.BenchmarkFile['treatment_warnings']>
>[number];

/** A condition stages at most this many files we keep counts for: the rest are not listed. */
const MAX_STAGED = 100;

/**
 * The treatment check over a campaign, condition by condition, from each run's `treatment`
 * (failed runs are the harness's and say nothing): the report opens with a warning for every
 * condition whose staged instructions reached the model in fewer than all its runs, since
 * those runs compared nothing. A run that cannot be decided is neither reached nor missed:
 * the warning says so, with why.
 */
export class TreatmentAccumulator {
  private readonly byCondition = new Map<string, ConditionCount>();
  private readonly split = new UseSplitAccumulator();

  /** `order`: the conditions as conditions.json lists them, which the report keeps. */
  constructor(private readonly order: readonly string[] = []) {}

  add(record: SplitRun): void {
    this.split.add(record);
    const t = record.treatment;
    // Nothing staged leaves reached null too: there is nothing to decide.
    if (leftOut(record) || !t || t.staged.length === 0) return;
    let c = this.byCondition.get(record.condition);
    if (!c)
      this.byCondition.set(
        record.condition,
        (c = { runs: 0, reached: 0, undecided: 0, used: 0, useKnown: 0, staged: new Map() }),
      );
    c.runs++;
    if (t.reached === true) c.reached++;
    if (t.reached === null) c.undecided++;
    if (typeof t.used === 'boolean') {
      c.useKnown++;
      if (t.used) c.used++;
    }
    for (const s of t.staged) {
      const e = stagedEntry(c, s);
      if (!e) continue;
      e.runs++;
      if (s.reached === true) e.reached++;
      if (s.reached === null) {
        e.undecided++;
        e.reason ??= s.undecided ?? 'no reason recorded';
      }
      if (s.used !== undefined) {
        e.useKnown++;
        if (s.used) e.used++;
      }
    }
  }

  /** Per condition that stages something: loaded, undecided and used, with the split by use. */
  summary(): TreatmentSummary[] {
    return this.ordered().map(([condition, c]) => summaryOf(condition, c, this.split));
  }

  warnings(): TreatmentWarning[] {
    const out: TreatmentWarning[] = [];
    for (const [condition, c] of this.ordered()) {
      if (c.reached === c.runs) continue;
      const entries = [...c.staged.values()];
      const missed = entries.filter((e) => e.reached < e.runs);
      out.push({
        condition,
        reached: c.reached,
        runs: c.runs,
        undecided: c.undecided,
        missed: missed.map(missedOf),
        text: `${condition}: ${warningParts(c, entries).join('; ')}`,
      });
    }
    return out;
  }

  private ordered(): Array<[string, ConditionCount]> {
    return inConditionOrder(this.byCondition, this.order);
  }
}

function stagedEntry(
  c: ConditionCount,
  s: NonNullable<RunRecord['treatment']>['staged'][number],
): StagedCount | undefined {
  let e = c.staged.get(s.path);
  if (!e && c.staged.size < MAX_STAGED) {
    e = {
      kind: s.kind,
      path: s.path,
      name: s.name,
      loads: s.loads,
      runs: 0,
      reached: 0,
      undecided: 0,
      reason: null,
      used: 0,
      useKnown: 0,
    };
    c.staged.set(s.path, e);
  }
  return e;
}

/** What missed runs say, then what undecided runs say: each only when there are some. */
function warningParts(c: ConditionCount, entries: readonly StagedCount[]): string[] {
  const missedRuns = c.runs - c.reached - c.undecided;
  const parts: string[] = [];
  if (missedRuns > 0) {
    const what = describeAll(entries.filter((e) => e.runs - e.reached - e.undecided > 0));
    const tail =
      c.reached === 0 && c.undecided === 0
        ? 'nothing was compared'
        : `${missedRuns} of its runs compared nothing`;
    parts.push(`the staged ${what} reached the model in ${c.reached}/${c.runs} runs: ${tail}`);
  }
  if (c.undecided > 0) {
    const undecided = entries.filter((e) => e.undecided > 0);
    const reason = undecided.find((e) => e.reason !== null)?.reason ?? 'no reason recorded';
    parts.push(
      `the staged ${describeAll(undecided)} could not be decided in ${c.undecided}/${c.runs} runs (${reason})`,
    );
  }
  return parts;
}

function missedOf(e: StagedCount): TreatmentWarning['missed'][number] {
  return {
    kind: e.kind,
    path: e.path,
    name: e.name,
    reached: e.reached,
    runs: e.runs,
    loads: e.loads,
    undecided: e.undecided,
    ...(e.reason !== null ? { undecided_reason: e.reason } : {}),
  };
}

/**
 * The staged files named in one sentence: those the agent does not load said once, after them
 * ("skill a (…) and AGENT.md, paths the agent does not load,"), the others first.
 */
function describeAll(entries: readonly StagedCount[]): string {
  const unloaded = entries.filter((e) => e.loads === false);
  const others = entries.filter((e) => e.loads !== false).map(describe);
  if (unloaded.length === 1) others.push(describe(unloaded[0]!));
  else if (unloaded.length > 1) {
    const names = unloaded.map((e) => describe({ ...e, loads: null }));
    others.push(
      `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}, paths the agent does not load,`,
    );
  }
  return others.join(' and ') || 'instructions';
}

/** A staged file as the report names it: a skill by its name and path, a file by its path. */
export function describe(e: Pick<StagedCount, 'kind' | 'name' | 'path' | 'loads'>): string {
  const where = e.kind === 'skill' ? `skill ${e.name ?? '?'} (${e.path})` : e.path;
  return e.loads === false ? `${where}, a path the agent does not load,` : where;
}
