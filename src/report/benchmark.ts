import type { DeepReadonly, RunMeasures, RunRecord } from '../artifacts/index.js';
import type * as Benchmark from '../artifacts/schemas/benchmark.js';
import {
  NUMBER_MEASURES,
  RATE_MEASURES,
  type NumberMeasure,
  type RateMeasure,
  checkOutcomes,
  type CheckedRun,
  failureOf,
  leftOut,
  noFailures,
} from '../measure/index.js';
import {
  NamedRateAccumulator,
  namedRates,
  rateOf,
  type FamilyRates,
  type RateFamily,
} from './rate-families.js';
import {
  fisherExact,
  newcombeDifference,
  NumberAccumulator,
  RateAccumulator,
  type NumberStats,
  type RateStats,
} from './stats.js';

/**
 * What an adapter agent's run.json totals say, as numbers over runs. A run
 * without an agent record (a command agent) adds nothing: n 0, never 0.
 */
export const AGENT_MEASURES = [
  'tokens_in',
  'tokens_out',
  'cache_read',
  'cache_write',
  'cost_usd',
  'tool_calls',
  'tool_calls_failed',
  'tool_calls_refused',
  'model_requests',
] as const;

export type AgentMeasure = (typeof AGENT_MEASURES)[number];

/** The agent measures of one run, from run.json's agent.totals; null when unknown. */
export function agentValues(agent: RunRecord['agent']): Record<AgentMeasure, number | null> | null {
  if (agent === undefined) return null;
  const t = agent.totals;
  return {
    tokens_in: t.tokens.input,
    tokens_out: t.tokens.output,
    cache_read: t.tokens.cache_read,
    cache_write: t.tokens.cache_write,
    cost_usd: t.cost_usd,
    tool_calls: t.tool_calls,
    tool_calls_failed: t.tool_calls_failed,
    // Versions before refusals were counted did not record them: unknown, never 0.
    tool_calls_refused: t.tool_calls_refused ?? null,
    model_requests: t.model_requests,
  };
}

/** The agent measures of a group of runs. */
export type AgentStats = DeepReadonly<Benchmark.AgentMeasures>;

/** No run measured it: what a measure an older benchmark.json lacks reads as. */
const NO_NUMBER: NumberStats = { mean: null, stddev: null, min: null, max: null, n: 0 };

/** A group's agent measure; one added since its file was written is unknown (n 0), never 0. */
export function agentStat(agent: AgentStats, m: AgentMeasure): NumberStats {
  return agent[m] ?? NO_NUMBER;
}

/**
 * The agent figures some condition has: a command agent's campaign has none, and a table of
 * "n/a (n 0)" rows says nothing.
 */
export function agentMeasuresOf(b: {
  readonly conditions: readonly { readonly agent: AgentStats }[];
}): AgentMeasure[] {
  return AGENT_MEASURES.filter((m) => b.conditions.some((c) => agentStat(c.agent, m).n > 0));
}

/** Number measures an eval set may not have: shown only where some condition measured them. */
const OPTIONAL_NUMBERS: ReadonlySet<NumberMeasure> = new Set(['diff_vs_reference']);

/** The number measures to show: every one, but an optional one no condition measured. */
export function numberMeasuresOf(b: {
  readonly conditions: readonly { readonly measures: Readonly<Record<string, unknown>> }[];
}): NumberMeasure[] {
  return NUMBER_MEASURES.filter(
    (m) =>
      !OPTIONAL_NUMBERS.has(m) ||
      b.conditions.some((c) => ((c.measures[m] as { n?: number } | undefined)?.n ?? 0) > 0),
  );
}

/** A comparison's agent difference; one its file lacks is unknown. */
export function agentDifference(agent: Comparison['agent'], m: AgentMeasure): NumberDifference {
  return agent[m] ?? { kind: 'number', baseline: null, other: null, difference: null };
}

/** Runs by how they ended. */
export type StatusCounts = DeepReadonly<Benchmark.Status>;

/** Every measure of a group of runs: rates for booleans, summaries for numbers. */
export type MeasureStats = DeepReadonly<Benchmark.Measures>;

/**
 * A group of runs: one condition, or one (eval, condition). Runs counted in the measures
 * (`measured`) are all but the harness's failures and the runs the budget cut: they say nothing
 * of the agent. A failure while the agent had control counts against its condition.
 */
export type GroupStats = Omit<BenchmarkConditions[number], 'condition'>;

/** other - baseline for a rate, with Fisher's p and Newcombe's 95% interval (null when a side has n 0). */
export type RateDifference = DeepReadonly<Benchmark.RateDifference>;

/** Difference of the means, other - baseline. */
export type NumberDifference = DeepReadonly<Benchmark.NumberDifference>;

/** A condition against the baseline: every measure's difference, the agent's, each check's and message check's. */
export type Comparison = DeepReadonly<Benchmark.BenchmarkFile['comparisons'][number]>;

/** A codebase of the campaign, with the evals that use it. */
export type CodebaseEntry = DeepReadonly<Benchmark.Codebase>;

type BenchmarkConditions = DeepReadonly<Benchmark.BenchmarkFile['conditions']>;

/** What a group takes of a run's record. */
export type MeasuredRun = Pick<
  RunRecord,
  'status' | 'measures' | 'agent' | 'message_checks' | 'limit' | 'failure' | 'error' | 'phase'
> &
  CheckedRun;

/** Running sums of one group: constant memory whatever the number of runs. */
export class GroupAccumulator {
  runs = 0;
  measured = 0;
  readonly status: Benchmark.Status = {
    completed: 0,
    timed_out: 0,
    broken: 0,
    failed: 0,
    limit_reached: 0,
  };
  private readonly rates = new Map<RateMeasure, RateAccumulator>(
    RATE_MEASURES.map((m) => [m, new RateAccumulator()]),
  );
  private readonly numbers = new Map<NumberMeasure, NumberAccumulator>(
    NUMBER_MEASURES.map((m) => [m, new NumberAccumulator()]),
  );
  private readonly agent = new Map<AgentMeasure, NumberAccumulator>(
    AGENT_MEASURES.map((m) => [m, new NumberAccumulator()]),
  );
  /** Each check and message check by name, in the order first seen. */
  private readonly families: Record<RateFamily, NamedRateAccumulator> = {
    checks: new NamedRateAccumulator(),
    message_checks: new NamedRateAccumulator(),
  };

  /** Failed, broken and timed-out runs by who had control. */
  readonly failures: Benchmark.Failures = noFailures();

  /** `declaredChecks`: the names of the checks of the run's eval (conditions.json). */
  add(run: MeasuredRun, declaredChecks: readonly string[] = []): void {
    this.runs++;
    this.status[run.status]++;
    const failure = failureOf(run);
    if (failure) this.failures[failure.class]++;
    // A harness failure, or a run the campaign's budget cut, says nothing of the agent (a resume
    // replays it); a failure while the agent had control counts against its condition.
    if (leftOut(run)) return;
    this.measured++;
    const m: RunMeasures = run.measures;
    // A measure a run of an older version lacks is unknown there, never a failure.
    for (const name of RATE_MEASURES) this.rates.get(name)!.add(m[name] ?? null);
    for (const name of NUMBER_MEASURES) this.numbers.get(name)!.add(m[name] ?? null);
    const a = agentValues(run.agent);
    if (a) for (const name of AGENT_MEASURES) this.agent.get(name)!.add(a[name]);
    for (const c of checkOutcomes(run, declaredChecks)) this.families.checks.add(c.name, c.passed);
    for (const c of run.message_checks ?? []) this.families.message_checks.add(c.name, c.passed);
  }

  stats(): GroupStats {
    const measures = {} as Record<string, RateStats | NumberStats>;
    for (const name of RATE_MEASURES) measures[name] = this.rates.get(name)!.stats();
    for (const name of NUMBER_MEASURES) measures[name] = this.numbers.get(name)!.stats();
    const agent = {} as Record<AgentMeasure, NumberStats>;
    for (const name of AGENT_MEASURES) agent[name] = this.agent.get(name)!.stats();
    return {
      runs: this.runs,
      measured: this.measured,
      status: { ...this.status },
      failures: { ...this.failures },
      measures: measures as MeasureStats,
      agent,
      message_checks: this.families.message_checks.stats(),
      checks: this.families.checks.stats(),
    };
  }
}

/**
 * The pairs to compare: the baseline with each other condition; when the
 * baseline is not among them, the first two.
 */
export function comparisonPairs(
  conditions: readonly string[],
  baseline: string,
): Array<[string, string]> {
  if (conditions.includes(baseline)) {
    return conditions.filter((c) => c !== baseline).map((c): [string, string] => [baseline, c]);
  }
  const [first, second] = conditions;
  return first !== undefined && second !== undefined ? [[first, second]] : [];
}

/** What a comparison takes of each group. */
type Compared = Pick<GroupStats, 'measures' | 'agent'> & FamilyRates;

/** Differences of every measure between two groups, other minus baseline. */
export function compare(
  baselineName: string,
  baseGroup: Compared,
  otherName: string,
  otherGroup: Compared,
): Comparison {
  const base = baseGroup.measures;
  const other = otherGroup.measures;
  const measures = {} as Record<string, RateDifference | NumberDifference>;
  for (const name of RATE_MEASURES) measures[name] = rateDifference(base[name], other[name]);
  const named: Record<RateFamily, Record<string, RateDifference>> = {
    checks: {},
    message_checks: {},
  };
  for (const r of namedRates([baseGroup, otherGroup])) {
    named[r.family][r.name] = rateDifference(rateOf(baseGroup, r), rateOf(otherGroup, r));
  }
  for (const name of NUMBER_MEASURES) {
    measures[name] = numberDifference(base[name], other[name]);
  }
  const agent = {} as Record<AgentMeasure, NumberDifference>;
  for (const name of AGENT_MEASURES) {
    agent[name] = numberDifference(
      agentStat(baseGroup.agent, name),
      agentStat(otherGroup.agent, name),
    );
  }
  return {
    baseline: baselineName,
    condition: otherName,
    measures: measures as Comparison['measures'],
    agent,
    message_checks: named.message_checks,
    checks: named.checks,
  };
}

/** other - baseline, with Newcombe's interval and Fisher's p. */
export function rateDifference(b: RateStats, o: RateStats): RateDifference {
  const known = b.n > 0 && o.n > 0;
  return {
    kind: 'rate',
    baseline: b.rate,
    other: o.rate,
    difference: b.rate === null || o.rate === null ? null : o.rate - b.rate,
    p_value: known
      ? fisherExact(o.successes, o.n - o.successes, b.successes, b.n - b.successes)
      : null,
    ci95: known ? newcombeDifference(o.successes, o.n, b.successes, b.n) : null,
  };
}

function numberDifference(base: NumberStats, other: NumberStats): NumberDifference {
  const b = base.mean;
  const o = other.mean;
  return {
    kind: 'number',
    baseline: b,
    other: o,
    difference: b === null || o === null ? null : o - b,
  };
}
