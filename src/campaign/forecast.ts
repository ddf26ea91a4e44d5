import type { EvalSet } from '../config/index.js';
import { InputError } from '../errors/index.js';
import { readBenchmark } from '../campaign-folder/index.js';
import type { BenchmarkFile } from '../report/benchmark-file.js';
import { minimumDetectableDifference } from '../report/stats.js';
import type { PlannedRun } from './plan.js';

/**
 * `evalrig plan`: what a campaign will take before anything starts. What one run costs comes
 * from a finished pilot campaign's benchmark.json (its account and per-condition means), or
 * from per-turn figures the user states; the runs per condition needed to detect a difference
 * come from the exact Fisher power computation the report's warnings use.
 */
export interface PerRun {
  readonly tokens: number;
  readonly costUsd: number;
  /** The cost's sample standard deviation per run (0 when stated). */
  readonly costSd: number;
  /** Seconds one run keeps a job busy. */
  readonly seconds: number;
  readonly from: string;
}

/** Per-run figures of a pilot campaign (its benchmark.json), per condition. */
export async function pilotPerRun(outDir: string): Promise<ReadonlyMap<string, PerRun>> {
  // Read as every reader does: no link followed, size bounded, checked against its schema.
  const read = await readBenchmark<BenchmarkFile>(outDir);
  if (read.status !== 'ok') {
    const why = read.status === 'missing' ? `${read.file} is missing` : read.problem;
    throw new InputError(`--from ${outDir}: ${why}; run \`evalrig report ${outDir}\` first`);
  }
  const b = read.value;
  const out = new Map<string, PerRun>();
  for (const c of b.conditions) {
    const a = c.agent;
    const tokens = ['tokens_in', 'tokens_out', 'cache_read', 'cache_write'] as const;
    out.set(c.condition, {
      tokens: tokens.reduce((n, k) => n + (a?.[k]?.mean ?? 0), 0),
      costUsd: a?.cost_usd?.mean ?? 0,
      costSd: a?.cost_usd?.stddev ?? 0,
      seconds: c.measures.duration_s.mean ?? 0,
      from: `pilot ${outDir} (${c.runs} run(s))`,
    });
  }
  return out;
}

/** Per-run figures from stated per-turn ones: every run plays all its turns. */
export function statedPerRun(
  turns: number,
  perTurn: { readonly tokens: number; readonly costUsd: number; readonly seconds: number },
): PerRun {
  return {
    tokens: turns * perTurn.tokens,
    costUsd: turns * perTurn.costUsd,
    costSd: 0,
    seconds: turns * perTurn.seconds,
    from: 'stated per-turn figures',
  };
}

/** Runs per condition (equal on both sides) to detect `difference` at power 0.8, or null past `max`. */
export function runsToDetect(difference: number, baselineRate = 0.5, max = 200): number | null {
  const detects = (n: number) => {
    const d = minimumDetectableDifference(n, n, {
      alpha: 0.05,
      power: 0.8,
      baseline: baselineRate,
    });
    return d !== null && d <= difference + 1e-9;
  };
  if (!detects(max)) return null;
  let [lo, hi] = [1, max];
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (detects(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The plan's lines: runs and turns, expected tokens, cost (±2 sd), wall time at `jobs`. */
export function forecastLines(
  evalSet: EvalSet,
  planned: readonly PlannedRun[],
  perRun: (condition: string) => PerRun,
  jobs: number,
): string[] {
  const turns = planned.reduce((n, p) => n + 1 + p.eval.turns.length, 0);
  let tokens = 0;
  let cost = 0;
  let variance = 0;
  let seconds = 0;
  let longest = 0;
  const sources = new Set<string>();
  for (const p of planned) {
    const r = perRun(p.condition.name);
    tokens += r.tokens;
    cost += r.costUsd;
    variance += r.costSd ** 2;
    seconds += r.seconds;
    longest = Math.max(longest, r.seconds);
    sources.add(r.from);
  }
  const err = 2 * Math.sqrt(variance);
  return [
    `${evalSet.file}: ${planned.length} run(s), ${turns} turn(s) to play (${evalSet.conditions.length} condition(s))`,
    `expected: ${Math.round(tokens).toLocaleString('en-US')} tokens, ${cost.toFixed(2)} USD${err > 0 ? ` ± ${err.toFixed(2)} (2 sd)` : ''} at list prices, wall time about ${Math.ceil(Math.max(longest, seconds / jobs))} s at --jobs ${jobs}`,
    `from: ${[...sources].join('; ')}`,
  ];
}
