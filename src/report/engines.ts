/**
 * A campaign's measures split by the engine each run ran on (run.json's
 * `engine`), per condition: the rows of one condition side by side show
 * whether an engine biases a result. Only when the runs ran on more than one
 * engine; runs of older versions (no `engine`) are left out of the split.
 */
import type { DeepReadonly, RunRecord } from '../artifacts/index.js';
import type * as Benchmark from '../artifacts/schemas/benchmark.js';
import { GroupAccumulator } from './benchmark.js';

/** One (engine, condition) group of benchmark.json's `by_engine`: the engine's address as given. */
export type EngineGroup = NonNullable<DeepReadonly<Benchmark.BenchmarkFile>['by_engine']>[number];

/** Running sums per (engine, condition). */
export class EngineSplit {
  private readonly groups = new Map<
    string,
    {
      engine: string;
      kind: 'docker' | 'podman' | 'kubernetes';
      condition: string;
      acc: GroupAccumulator;
    }
  >();
  private readonly engines = new Set<string>();

  /** `declaredChecks`: the names of the checks of the run's eval (conditions.json). */
  add(record: RunRecord, declaredChecks: readonly string[] = []): void {
    const engine = record.engine;
    if (!engine) return;
    this.engines.add(engine.address);
    const key = JSON.stringify([engine.address, record.condition]);
    let group = this.groups.get(key);
    if (!group) {
      group = {
        engine: engine.address,
        kind: engine.kind,
        condition: record.condition,
        acc: new GroupAccumulator(),
      };
      this.groups.set(key, group);
    }
    group.acc.add(record, declaredChecks);
  }

  /** The groups, by condition then engine; undefined when the runs ran on one engine. */
  groupsIfSplit(): EngineGroup[] | undefined {
    if (this.engines.size < 2) return undefined;
    return [...this.groups.values()]
      .sort((a, b) => a.condition.localeCompare(b.condition) || a.engine.localeCompare(b.engine))
      .map((g) => ({ engine: g.engine, kind: g.kind, condition: g.condition, ...g.acc.stats() }));
  }
}
