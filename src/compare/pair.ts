import {
  detectableGrid,
  fisherExact,
  hardestOf,
  newcombeDifference,
  type WorstDetectable,
} from '../report/stats.js';
import type { BenchmarkFile } from '../report/index.js';
import { welchDifference } from '../report/welch.js';
import type {
  GroupComparison,
  MeasureComparison,
  OneSidedGroup,
  OneSidedMeasure,
  SideNumber,
  SmallestDetectable,
  SideRate,
} from './types.js';

/** A measure of one group, as benchmark.json holds it. */
export type MeasureValue =
  | { readonly kind: 'rate'; readonly stats: SideRate }
  | { readonly kind: 'number'; readonly stats: SideNumber };

/** A group of runs in benchmark.json: one condition overall, or in one eval. */
export type BenchmarkGroup = BenchmarkFile['conditions'][number] | BenchmarkFile['evals'][number];

// The fields of a group that are not measures.
const GROUP_FIELDS = new Set(['eval', 'condition', 'runs', 'measured', 'status']);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asRate(v: Record<string, unknown>): SideRate | null {
  if (typeof v.successes !== 'number' || typeof v.n !== 'number' || !('rate' in v)) return null;
  return { rate: typeof v.rate === 'number' ? v.rate : null, successes: v.successes, n: v.n };
}

function asNumber(v: Record<string, unknown>): SideNumber | null {
  if (typeof v.n !== 'number' || !('mean' in v)) return null;
  return {
    mean: typeof v.mean === 'number' ? v.mean : null,
    stddev: typeof v.stddev === 'number' ? v.stddev : null,
    n: v.n,
  };
}

/**
 * Every measure of a group by its name: `measures` by their own names
 * (`pr_described`), other families prefixed (`agent.tokens_in`). Read by
 * shape, not from a fixed list, so measures one evalrig adds (message checks,
 * gradings) pair up when both sides have them and are listed when one lacks
 * them.
 */
export function groupMeasures(group: BenchmarkGroup): Map<string, MeasureValue> {
  const out = new Map<string, MeasureValue>();
  const walk = (prefix: string, value: Record<string, unknown>): void => {
    for (const [name, v] of Object.entries(value)) {
      if (!isObject(v)) continue;
      const key = prefix ? `${prefix}.${name}` : name;
      const rate = asRate(v);
      if (rate) {
        out.set(key, { kind: 'rate', stats: rate });
        continue;
      }
      const number = asNumber(v);
      if (number) {
        out.set(key, { kind: 'number', stats: number });
        continue;
      }
      walk(key, v);
    }
  };
  for (const [family, value] of Object.entries(group as unknown as Record<string, unknown>)) {
    if (GROUP_FIELDS.has(family) || !isObject(value)) continue;
    walk(family === 'measures' ? '' : family, value);
  }
  return out;
}

const groupKey = (evalId: string | null, condition: string): string =>
  JSON.stringify([evalId, condition]);

function rateOf(v: unknown): MeasureValue | null {
  const rate = isObject(v) ? asRate(v) : null;
  return rate ? { kind: 'rate', stats: rate } : null;
}

function numberOf(v: unknown): MeasureValue | null {
  const number = isObject(v) ? asNumber(v) : null;
  return number ? { kind: 'number', stats: number } : null;
}

function list(v: unknown): Record<string, unknown>[] {
  return Array.isArray(v) ? v.filter(isObject) : [];
}

/**
 * The judge's measures, by group: benchmark.json's `grading` (written when
 * the runs were graded) keeps them beside the groups, not in them. Per
 * condition: `grading.all_passed`, `grading.expectations` (rates),
 * `grading.expectations_passed` (a number) and `grading.blind_wins`; per
 * (eval, condition): `grading.all_passed` and `grading.expectation: <its text>`. Read by shape: an
 * absent or unknown section gives nothing.
 */
export function gradingMeasures(b: BenchmarkFile): Map<string, Map<string, MeasureValue>> {
  const out = new Map<string, Map<string, MeasureValue>>();
  const grading = (b as unknown as { grading?: unknown }).grading;
  if (!isObject(grading)) return out;
  const add = (key: string, name: string, value: MeasureValue | null): void => {
    if (!value) return;
    let m = out.get(key);
    if (!m) out.set(key, (m = new Map()));
    m.set(name, value);
  };
  for (const c of list(grading.conditions)) {
    if (typeof c.condition !== 'string') continue;
    const key = groupKey(null, c.condition);
    add(key, 'grading.all_passed', rateOf(c.all_passed));
    add(key, 'grading.expectations', rateOf(c.expectations));
    add(key, 'grading.expectations_passed', numberOf(c.expectations_passed));
  }
  // Per (eval, condition) too, where the report wrote it: the gate tests it within evals.
  for (const e of list(grading.evals)) {
    if (typeof e.eval !== 'string' || typeof e.condition !== 'string') continue;
    add(groupKey(e.eval, e.condition), 'grading.all_passed', rateOf(e.all_passed));
  }
  for (const e of list(grading.expectations)) {
    if (typeof e.eval !== 'string' || typeof e.condition !== 'string') continue;
    if (typeof e.expectation !== 'string') continue;
    add(groupKey(e.eval, e.condition), `grading.expectation: ${e.expectation}`, rateOf(e.stats));
  }
  const blind = isObject(grading.blind) ? grading.blind : {};
  for (const w of list(blind.wins)) {
    if (typeof w.condition !== 'string') continue;
    add(groupKey(null, w.condition), 'grading.blind_wins', rateOf(w.stats));
  }
  return out;
}

/** A rate of B against A: the difference, Newcombe's interval, Fisher's p. */
export function compareRates(measure: string, a: SideRate, b: SideRate): MeasureComparison {
  const known = a.n > 0 && b.n > 0 && a.rate !== null && b.rate !== null;
  return {
    measure,
    kind: 'rate',
    a,
    b,
    difference: known ? b.rate! - a.rate! : null,
    ci95: known ? newcombeDifference(b.successes, b.n, a.successes, a.n) : null,
    p_value: known
      ? fisherExact(b.successes, b.n - b.successes, a.successes, a.n - a.successes)
      : null,
  };
}

/** A number of B against A: the difference of means with Welch's interval. */
export function compareNumbers(measure: string, a: SideNumber, b: SideNumber): MeasureComparison {
  const w = welchDifference(a, b);
  return { measure, kind: 'number', a, b, difference: w.difference, ci95: w.ci95, df: w.df };
}

// Past this many runs a side the exact computation costs (0.8 s at 400 against 400, per pair of
// sizes, twice) more than it tells: from 100 against 100 the answer is under 20.2 pts.
const DETECTABLE_MAX_RUNS = 100;
const gridMemo = new Map<string, WorstDetectable[]>();

/** What nB runs against nA detect from each baseline of the grid (A's rate), remembered. */
function gridOf(nA: number, nB: number): WorstDetectable[] {
  const key = `${nA}/${nB}`;
  if (!gridMemo.has(key)) gridMemo.set(key, detectableGrid(nB, nA)!);
  return gridMemo.get(key)!;
}

/**
 * The smallest difference of rates these numbers of runs detect (Fisher's
 * p < 0.05, 80% power), when A's true rate is 0 (or 1: a behaviour A never
 * or always shows, the easiest case), when it is 0.5, and at the hardest rate
 * of the grid (not always 0.5); null past DETECTABLE_MAX_RUNS or with no run
 * on a side.
 */
export function smallestDetectable(nA: number, nB: number): SmallestDetectable | null {
  if (nA <= 0 || nB <= 0 || nA > DETECTABLE_MAX_RUNS || nB > DETECTABLE_MAX_RUNS) return null;
  const grid = gridOf(nA, nB);
  const worst = hardestOf(grid);
  return {
    n_a: nA,
    n_b: nB,
    from_edge: grid[0]!.difference,
    from_half: grid[grid.length - 1]!.difference,
    worst: { rate_a: worst.baseline, difference: worst.difference },
  };
}

/** Every measure of two groups of the same condition: paired when both have it, listed when one does. */
export function compareGroups(
  evalId: string | null,
  a: BenchmarkGroup,
  b: BenchmarkGroup,
  extra: { a?: Map<string, MeasureValue>; b?: Map<string, MeasureValue> } = {},
): GroupComparison {
  const ma = new Map([...groupMeasures(a), ...(extra.a ?? [])]);
  const mb = new Map([...groupMeasures(b), ...(extra.b ?? [])]);
  const measures: MeasureComparison[] = [];
  const oneSided: OneSidedMeasure[] = [];
  for (const [name, va] of ma) {
    const vb = mb.get(name);
    if (!vb) oneSided.push({ measure: name, kind: va.kind, only: 'a' });
    else if (va.kind === 'rate' && vb.kind === 'rate')
      measures.push(compareRates(name, va.stats, vb.stats));
    else if (va.kind === 'number' && vb.kind === 'number')
      measures.push(compareNumbers(name, va.stats, vb.stats));
    else {
      // A rate on one side and a number on the other is not the same measure.
      oneSided.push({ measure: name, kind: va.kind, only: 'a' });
      oneSided.push({ measure: name, kind: vb.kind, only: 'b' });
    }
  }
  for (const [name, vb] of mb)
    if (!ma.has(name)) oneSided.push({ measure: name, kind: vb.kind, only: 'b' });
  return {
    eval: evalId,
    condition: a.condition,
    runs: { a: a.runs, b: b.runs },
    measured: { a: a.measured, b: b.measured },
    measures,
    one_sided: oneSided,
    smallest_detectable: smallestDetectable(a.measured, b.measured),
  };
}

/**
 * The groups of two campaigns paired by (eval, condition): every condition
 * overall first, then every eval's, in A's order. A group only one side has
 * is listed, never dropped.
 */
export function pairGroups(
  a: BenchmarkFile,
  b: BenchmarkFile,
): { groups: GroupComparison[]; oneSided: OneSidedGroup[] } {
  const groups: GroupComparison[] = [];
  const oneSided: OneSidedGroup[] = [];
  const gradingA = gradingMeasures(a);
  const gradingB = gradingMeasures(b);
  const pair = <G extends BenchmarkGroup>(
    as: readonly G[],
    bs: readonly G[],
    evalOf: (g: G) => string | null,
  ): void => {
    const key = (g: G) => groupKey(evalOf(g), g.condition);
    const byKey = new Map(bs.map((g) => [key(g), g]));
    const seen = new Set<string>();
    for (const ga of as) {
      const gb = byKey.get(key(ga));
      seen.add(key(ga));
      if (gb)
        groups.push(
          compareGroups(evalOf(ga), ga, gb, {
            a: gradingA.get(key(ga)),
            b: gradingB.get(key(ga)),
          }),
        );
      else oneSided.push({ eval: evalOf(ga), condition: ga.condition, only: 'a', runs: ga.runs });
    }
    for (const gb of bs)
      if (!seen.has(key(gb)))
        oneSided.push({ eval: evalOf(gb), condition: gb.condition, only: 'b', runs: gb.runs });
  };
  pair(a.conditions, b.conditions, () => null);
  pair(a.evals, b.evals, (g) => g.eval);
  return { groups, oneSided };
}
