/**
 * The services the campaign's runs had beside them, for BASELINE.md: per
 * (service, image), the evals whose runs started it, how long it took to be
 * ready (median and slowest), and in how many runs it died.
 */
import type { DeepReadonly, RunRecord } from '../artifacts/index.js';
import type * as Benchmark from '../artifacts/schemas/benchmark.js';

/** One service image of benchmark.json's `provenance.services`: the runs that started it and were ready, the runs it died in. */
export type ServiceEntry = NonNullable<
  DeepReadonly<Benchmark.BenchmarkFile>['provenance']['services']
>[number];

/** Running record of the services seen in run.json files. */
export class ServiceSplit {
  private readonly groups = new Map<
    string,
    {
      name: string;
      image: { tag: string; id: string };
      evals: Set<string>;
      ready: number[];
      died: number;
    }
  >();

  add(record: RunRecord): void {
    for (const s of record.services ?? []) {
      const key = JSON.stringify([s.name, s.image.id]);
      let g = this.groups.get(key);
      if (!g) {
        g = { name: s.name, image: { ...s.image }, evals: new Set(), ready: [], died: 0 };
        this.groups.set(key, g);
      }
      g.evals.add(record.eval);
      if (s.ready_ms !== undefined) g.ready.push(s.ready_ms);
      if (s.failure) g.died++;
    }
  }

  /** The entries by name, then image; undefined when no run had services. */
  entries(): ServiceEntry[] | undefined {
    if (this.groups.size === 0) return undefined;
    return [...this.groups.values()]
      .sort((a, b) => a.name.localeCompare(b.name) || a.image.id.localeCompare(b.image.id))
      .map((g) => {
        const sorted = [...g.ready].sort((a, b) => a - b);
        const mid = sorted.length >> 1;
        const median =
          sorted.length % 2 === 1
            ? sorted[mid]!
            : Math.round((sorted[mid - 1]! + sorted[mid]!) / 2);
        return {
          name: g.name,
          image: g.image,
          evals: [...g.evals].sort(),
          runs: sorted.length,
          ready_ms: sorted.length === 0 ? null : { median, max: sorted[sorted.length - 1]! },
          died: g.died,
        };
      });
  }
}

/** BASELINE.md's rows of the services: image, readiness, deaths. */
export function serviceRows(entries: readonly ServiceEntry[] | undefined): string[][] {
  return (entries ?? []).map((s) => {
    const ready = s.ready_ms
      ? `ready in ${(s.ready_ms.median / 1000).toFixed(2)} s median, ${(s.ready_ms.max / 1000).toFixed(2)} s slowest (n ${s.runs})`
      : 'never ready';
    return [
      `service ${s.name} (${s.evals.join(', ')})`,
      `${s.image.tag} ${s.image.id}; ${ready}; died in ${s.died} run(s)`,
    ];
  });
}
