/**
 * The sequential test of a campaign played with `--until-decided`, as the report says it:
 * benchmark.json's `sequential` from the folder's sequential.json, and its lines in report.md
 * and BASELINE.md (the design, and why it stopped).
 */
import type { DeepReadonly, SequentialFile } from '../artifacts/index.js';
import type * as Benchmark from '../artifacts/schemas/benchmark.js';
import { readSequential } from '../campaign-folder/index.js';
import { designWords } from '../sequential/index.js';

export type SequentialSection = DeepReadonly<NonNullable<Benchmark.BenchmarkFile['sequential']>>;

/** benchmark.json's `sequential` of a sequential.json. */
export function sequentialSection(file: SequentialFile): SequentialSection {
  const d = file.design;
  const design = designWords({
    alpha: d.alpha,
    beta: d.beta,
    minEffect: d.min_effect,
    maxRuns: d.max_runs,
  });
  return {
    method: d.method,
    design,
    primary_measure: d.primary_measure,
    condition: d.condition,
    baseline: d.baseline,
    max_runs: d.max_runs,
    runs: file.looks.at(-1)?.runs ?? 0,
    looks: file.looks.length,
    decision: file.decision,
    text: file.text,
  };
}

/** The folder's sequential test, when it was played with one (a broken record says nothing). */
export async function readSequentialSection(dir: string): Promise<SequentialSection | undefined> {
  const read = await readSequential(dir);
  return read.status === 'ok' ? sequentialSection(read.value) : undefined;
}

/** The verdict's first line: the sequential test of the primary measure and its decision. */
export function sequentialLine(s: SequentialSection): string {
  return `Sequential test of ${s.primary_measure}, ${s.condition} vs ${s.baseline} (${s.design}): ${s.text}`;
}

/** BASELINE.md's rows of the sequential test. */
export function sequentialRows(s: SequentialSection | undefined): string[][] {
  if (!s) return [];
  return [
    ['sequential design', `${s.design}; primary measure ${s.primary_measure}`],
    ['sequential decision', `${s.text} (${s.looks} look(s))`],
  ];
}
