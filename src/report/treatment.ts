import type { DeepReadonly, RunRecord } from '../artifacts/index.js';
import type * as Benchmark from '../artifacts/schemas/benchmark.js';

/** A condition whose staged instructions did not reach the model in every run (benchmark.json's `treatment_warnings`). */
export type TreatmentWarning = NonNullable<
  DeepReadonly<Benchmark.BenchmarkFile>['treatment_warnings']
>[number];

interface Entry {
  kind: 'skill' | 'instructions';
  path: string;
  name: string | null;
  loads: boolean | null;
  reached: number;
  runs: number;
}

/**
 * The treatment check over a campaign, condition by condition, from each run's `treatment`
 * (failed runs are the harness's and say nothing): the report opens with a warning for every
 * condition whose staged instructions reached the model in fewer than all its runs, since
 * those runs compared nothing.
 */
export class TreatmentAccumulator {
  private readonly byCondition = new Map<
    string,
    { reached: number; runs: number; staged: Map<string, Entry> }
  >();

  add(record: Pick<RunRecord, 'condition' | 'status' | 'treatment'>): void {
    const t = record.treatment;
    if (record.status === 'failed' || !t || t.reached === null) return;
    let c = this.byCondition.get(record.condition);
    if (!c)
      this.byCondition.set(record.condition, (c = { reached: 0, runs: 0, staged: new Map() }));
    c.runs++;
    if (t.reached) c.reached++;
    for (const s of t.staged) {
      let e = c.staged.get(s.path);
      if (!e && c.staged.size < 100) {
        e = { kind: s.kind, path: s.path, name: s.name, loads: s.loads, reached: 0, runs: 0 };
        c.staged.set(s.path, e);
      }
      if (!e) continue;
      e.runs++;
      if (s.reached) e.reached++;
    }
  }

  warnings(): TreatmentWarning[] {
    const out: TreatmentWarning[] = [];
    for (const [condition, c] of this.byCondition) {
      if (c.reached === c.runs) continue;
      const missed = [...c.staged.values()].filter((e) => e.reached < e.runs);
      const what = missed.map(describe).join(' and ') || 'instructions';
      const tail =
        c.reached === 0
          ? 'nothing was compared'
          : `${c.runs - c.reached} of its runs compared nothing`;
      const text = `${condition}: the staged ${what} reached the model in ${c.reached}/${c.runs} runs: ${tail}`;
      out.push({ condition, reached: c.reached, runs: c.runs, missed, text });
    }
    return out;
  }
}

function describe(e: Entry): string {
  const where = e.kind === 'skill' ? `skill ${e.name ?? '?'} (${e.path})` : e.path;
  return e.loads === false ? `${where}, a path the agent does not load,` : where;
}
