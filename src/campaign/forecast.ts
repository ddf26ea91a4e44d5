import type { EvalSet } from '../config/index.js';
import { InputError } from '../errors/index.js';
import { readBenchmark } from '../campaign-folder/index.js';
import type { BenchmarkFile } from '../report/benchmark-file.js';
import { minimumDetectableDifference } from '../report/stats.js';
import type { PlannedRun } from './plan.js';

/**
 * `evalrig plan`: what a campaign will take before anything starts. What one run costs comes
 * from a finished pilot campaign's benchmark.json (the means of the pilot's runs of the same
 * eval and condition, else of the condition), or from per-turn figures the user states; the
 * runs per condition needed to detect a difference come from the exact Fisher power
 * computation the report's warnings use.
 */
export interface PerRun {
  readonly tokens: number;
  readonly costUsd: number;
  /** Seconds one run keeps a job busy. */
  readonly seconds: number;
  /**
   * The sample standard deviation per run of each figure, from the pilot's runs; null when
   * none can be known (stated figures, or a single pilot run).
   */
  readonly spread: {
    readonly tokens: number;
    readonly costUsd: number;
    readonly seconds: number;
  } | null;
  /** Pilot runs the means come from (0 for stated figures). */
  readonly runs: number;
  /** Runs that share this figure share its error: the pilot group it comes from. */
  readonly key: string;
  readonly from: string;
}

/** Per-run figures of a pilot campaign, by (eval, condition) where it played them. */
export interface Pilot {
  perRun(evalId: string, condition: string): PerRun | undefined;
}

type Group = BenchmarkFile['conditions'][number];
const TOKENS = ['tokens_in', 'tokens_out', 'cache_read', 'cache_write'] as const;

/** A pilot group's means, and its spread (else `fallback`'s, a wider group's). */
function groupPerRun(g: Group, key: string, from: string, fallback?: PerRun): PerRun {
  const a = g.agent;
  const d = g.measures.duration_s;
  // The sd of a sum is at most the sum of its parts' (the token kinds are read apart).
  const tokenSd = TOKENS.map((k) => a[k].stddev);
  const own =
    a.cost_usd.stddev !== null && d.stddev !== null && tokenSd.every((s) => s !== null)
      ? { tokens: sum(tokenSd as number[]), costUsd: a.cost_usd.stddev, seconds: d.stddev }
      : null;
  return {
    tokens: sum(TOKENS.map((k) => a[k].mean ?? 0)),
    costUsd: a.cost_usd.mean ?? 0,
    seconds: d.mean ?? 0,
    spread: own ?? fallback?.spread ?? null,
    runs: a.cost_usd.n,
    key,
    from,
  };
}

const sum = (xs: readonly number[]) => xs.reduce((n, x) => n + x, 0);

/** A pilot campaign's per-run figures (its benchmark.json). */
export async function readPilot(outDir: string): Promise<Pilot> {
  // Read as every reader does: no link followed, size bounded, checked against its schema.
  const read = await readBenchmark<BenchmarkFile>(outDir);
  if (read.status !== 'ok') {
    const why = read.status === 'missing' ? `${read.file} is missing` : read.problem;
    throw new InputError(`--from ${outDir}: ${why}; run \`evalrig report ${outDir}\` first`);
  }
  const b = read.value;
  const byCondition = new Map<string, PerRun>();
  for (const c of b.conditions) {
    if (c.agent.cost_usd.n === 0) continue; // no run of it says what it costs
    const from = `pilot ${outDir}, condition ${c.condition} (${c.agent.cost_usd.n} run(s))`;
    byCondition.set(c.condition, groupPerRun(c, `condition ${c.condition}`, from));
  }
  const byEval = new Map<string, PerRun>();
  for (const e of b.evals) {
    const condition = byCondition.get(e.condition);
    if (!condition || e.agent.cost_usd.n === 0) continue;
    const key = `eval ${e.eval}, condition ${e.condition}`;
    const from = `pilot ${outDir}, by eval and condition`;
    byEval.set(`${e.eval}\0${e.condition}`, groupPerRun(e, key, from, condition));
  }
  return {
    perRun: (evalId, condition) =>
      byEval.get(`${evalId}\0${condition}`) ?? byCondition.get(condition),
  };
}

/** Per-run figures from stated per-turn ones: every run plays all its turns. */
export function statedPerRun(
  turns: number,
  perTurn: { readonly tokens: number; readonly costUsd: number; readonly seconds: number },
): PerRun {
  return {
    tokens: turns * perTurn.tokens,
    costUsd: turns * perTurn.costUsd,
    seconds: turns * perTurn.seconds,
    spread: null,
    runs: 0,
    key: `stated, ${turns} turn(s)`,
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

/** An expected figure and its error: 2 sd of what the campaign may differ by; null when unknown. */
export interface Estimate {
  readonly expected: number;
  readonly error: number | null;
}

/** What `evalrig plan` says of a campaign (its --json output). */
export interface Forecast {
  readonly eval_set: string;
  readonly runs: number;
  readonly turns: number;
  readonly conditions: number;
  readonly jobs: number;
  readonly tokens: Estimate;
  readonly cost_usd: Estimate;
  readonly wall_s: Estimate;
  /** Why no error is stated, when none is. */
  readonly no_error?: string;
  readonly from: readonly string[];
}

/**
 * Expected tokens, cost and wall time of the planned runs, each with an error of 2 sd. Runs
 * whose figure comes from the same pilot group (k of them, its mean from n runs of spread s)
 * add k·s² for their own spread and k²·s²/n for the uncertainty of the mean they share.
 */
export function forecast(
  evalSet: EvalSet,
  planned: readonly PlannedRun[],
  perRun: (run: PlannedRun) => PerRun,
  jobs: number,
): Forecast {
  const groups = new Map<string, { figure: PerRun; k: number }>();
  let longest = 0;
  for (const p of planned) {
    const figure = perRun(p);
    const g = groups.get(figure.key) ?? { figure, k: 0 };
    g.k++;
    groups.set(figure.key, g);
    longest = Math.max(longest, figure.seconds);
  }
  const all = [...groups.values()];
  const unknown = all.find((g) => g.figure.spread === null)?.figure;
  const estimate = (of: 'tokens' | 'costUsd' | 'seconds'): Estimate => {
    const expected = sum(all.map((g) => g.k * g.figure[of]));
    const variance = sum(
      all.map(({ figure: f, k }) => (f.spread ? f.spread[of] ** 2 * (k + (k * k) / f.runs) : 0)),
    );
    return { expected, error: unknown ? null : 2 * Math.sqrt(variance) };
  };
  const seconds = estimate('seconds');
  return {
    eval_set: evalSet.file,
    runs: planned.length,
    turns: planned.reduce((n, p) => n + 1 + p.eval.turns.length, 0),
    conditions: evalSet.conditions.length,
    jobs,
    tokens: estimate('tokens'),
    cost_usd: estimate('costUsd'),
    wall_s: {
      expected: Math.max(longest, seconds.expected / jobs),
      error: seconds.error === null ? null : seconds.error / jobs,
    },
    ...(unknown ? { no_error: noErrorWhy(unknown) } : {}),
    from: [...new Set(all.map((g) => g.figure.from))],
  };
}

function noErrorWhy(f: PerRun): string {
  return f.runs === 0
    ? 'stated figures carry no spread'
    : `the pilot has one run of ${f.key.replace(/^eval .*, /u, '')}: a pilot of 2 runs or more states one`;
}

/** The plan's lines, as `evalrig plan` prints them. */
export function forecastLines(f: Forecast): string[] {
  const err = (e: Estimate, show: (n: number) => string) =>
    e.error === null ? '' : ` ± ${show(e.error)}`;
  const tokens = (n: number) => Math.round(n).toLocaleString('en-US');
  const usd = (n: number) => n.toFixed(2);
  const secs = (n: number) => String(Math.ceil(n));
  return [
    `${f.eval_set}: ${f.runs} run(s), ${f.turns} turn(s) to play (${f.conditions} condition(s))`,
    `expected: ${tokens(f.tokens.expected)}${err(f.tokens, tokens)} tokens, ${usd(f.cost_usd.expected)}${err(f.cost_usd, usd)} USD at list prices, wall time about ${secs(f.wall_s.expected)}${err(f.wall_s, secs)} s at --jobs ${f.jobs}`,
    f.no_error === undefined
      ? "errors: 2 sd of the pilot's spread per run, the uncertainty of its means included"
      : `errors: none stated (${f.no_error})`,
    `from: ${f.from.join('; ')}`,
  ];
}
