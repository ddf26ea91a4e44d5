/**
 * What the judge said, aggregated from the stored grading.json and comparison.json files
 * (never from a model: the report calls none). A grading error is a null, never a fail.
 */
import type { DeepReadonly, GradingFile, RunRecord } from '../artifacts/index.js';
import type * as Benchmark from '../artifacts/schemas/benchmark.js';
import { listComparisons, readComparison, readGrading } from '../campaign-folder/index.js';
import { rateDifference } from './benchmark.js';
import { NumberAccumulator, RateAccumulator, type RateStats } from './stats.js';
import { leftOut } from '../measure/index.js';

/** benchmark.json's `grading`: present when any run was graded or compared. */
export type GradingSection = NonNullable<DeepReadonly<Benchmark.BenchmarkFile>['grading']>;

/** One condition's grading: its graded runs, errors, and the rates of what passed. */
export type ConditionGrading = GradingSection['conditions'][number];

/** One expectation of one eval under one condition. */
export type ExpectationGrading = GradingSection['expectations'][number];

/** Win rates of a blind comparison of two conditions. */
export type BlindGrading = NonNullable<GradingSection['blind']>[number];

/** A judge and rubric that graded runs of the campaign (more than one: graded at different times). */
export type JudgeUsed = GradingSection['judges'][number];

class ConditionAccumulator {
  graded = 0;
  errors = 0;
  without = 0;
  /** Graded by a judge script's catch-all: counted, and said. */
  fellBack = 0;
  readonly all = new RateAccumulator();
  readonly expectations = new RateAccumulator();
  readonly share = new NumberAccumulator();
}

/** A run's grading.json: the file, null when there is none, or undefined when broken. */
async function gradingOf(dir: string): Promise<GradingFile | null | undefined> {
  const read = await readGrading(dir);
  return read.status === 'ok' ? read.value : read.status === 'missing' ? null : undefined;
}

/** Running sums of the campaign's gradings, read run by run as the report streams them. */
export class GradingAccumulator {
  private readonly byCondition = new Map<string, ConditionAccumulator>();
  private readonly byExpectation = new Map<
    string,
    ExpectationGrading & { acc: RateAccumulator; index: number }
  >();
  /** Runs meeting every expectation per (eval, condition), in the order first graded. */
  private readonly byEval = new Map<
    string,
    { eval: string; condition: string; all: RateAccumulator }
  >();
  private seen = false;
  private readonly judges = new Map<string, JudgeUsed>();
  /** Run folders whose grading.json is unreadable or not the run's (named by the caller). */
  readonly broken: string[] = [];
  /** Told of each run's grading as it is read (the campaign's account of the judge's calls). */
  onGrading?: (g: GradingFile) => void;

  constructor(conditionOrder: readonly string[]) {
    for (const c of conditionOrder) this.byCondition.set(c, new ConditionAccumulator());
  }

  /** Adds a measured run's grading (a harness failure says nothing of the agent: left out). */
  async add(runDir: string, record: RunRecord): Promise<void> {
    if (leftOut(record)) return;
    let acc = this.byCondition.get(record.condition);
    if (!acc) this.byCondition.set(record.condition, (acc = new ConditionAccumulator()));
    const g = await gradingOf(runDir);
    if (g === null) {
      acc.without++;
      return;
    }
    this.seen = true;
    if (
      g === undefined ||
      g.eval !== record.eval ||
      g.condition !== record.condition ||
      g.run !== record.run
    ) {
      this.broken.push(runDir);
      acc.errors++;
      return;
    }
    this.onGrading?.(g);
    const judge = JSON.stringify([
      g.judge.model,
      g.judge.source,
      g.rubric.version,
      g.rubric.sha256,
    ]);
    const used = this.judges.get(judge);
    // A script is the judge offline: each one that graded is named (its grading stands when edited).
    const script = g.judge.script_sha256;
    const scripts = new Set([...(used?.scripts_sha256 ?? []), ...(script ? [script] : [])]);
    this.judges.set(judge, {
      model: g.judge.model,
      source: g.judge.source,
      ...(scripts.size > 0 ? { scripts_sha256: [...scripts].sort() } : {}),
      rubric: g.rubric.version,
      rubric_sha256: g.rubric.sha256,
      runs: (used?.runs ?? 0) + 1,
    });
    if (g.status !== 'graded') {
      acc.errors++;
      return;
    }
    acc.graded++;
    if (g.fell_back) acc.fellBack++;
    acc.all.add(g.all_passed);
    this.allByEval(g.eval, g.condition).add(g.all_passed);
    acc.share.add(g.expectations_passed);
    for (const e of g.expectations) {
      acc.expectations.add(e.passed);
      const key = JSON.stringify([g.eval, g.condition, e.expectation]);
      let one = this.byExpectation.get(key);
      if (!one) {
        one = {
          eval: g.eval,
          condition: g.condition,
          expectation: e.expectation,
          stats: null as unknown as RateStats,
          acc: new RateAccumulator(),
          // The expectation's place in the eval (its grading keeps the eval's order).
          index: g.expectations.indexOf(e),
        };
        this.byExpectation.set(key, one);
      }
      one.acc.add(e.passed);
    }
  }

  private allByEval(evalId: string, condition: string): RateAccumulator {
    const key = JSON.stringify([evalId, condition]);
    let one = this.byEval.get(key);
    if (!one) this.byEval.set(key, (one = { eval: evalId, condition, all: new RateAccumulator() }));
    return one.all;
  }

  /**
   * The section, with the baseline compared to each other condition, and the blind
   * comparisons found under comparisons/; undefined when nothing was graded or compared.
   */
  async section(
    outDir: string,
    pairs: ReadonlyArray<readonly [string, string]>,
  ): Promise<GradingSection | undefined> {
    const blind = await readBlind(outDir);
    if (!this.seen && blind.length === 0) return undefined;
    const conditions = [...this.byCondition.entries()].map(([condition, a]): ConditionGrading => ({
      condition,
      graded: a.graded,
      errors: a.errors,
      without_grading: a.without,
      ...(a.fellBack > 0 ? { fell_back: a.fellBack } : {}),
      all_passed: a.all.stats(),
      expectations: a.expectations.stats(),
      expectations_passed: a.share.stats(),
    }));
    const by = new Map(conditions.map((c) => [c.condition, c]));
    const comparisons = pairs
      .filter(([b, o]) => by.has(b) && by.has(o))
      .map(([b, o]) => ({
        baseline: b,
        condition: o,
        all_passed: rateDifference(by.get(b)!.all_passed, by.get(o)!.all_passed),
        expectations: rateDifference(by.get(b)!.expectations, by.get(o)!.expectations),
      }));
    return {
      judges: [...this.judges.values()],
      conditions,
      // Runs are read a few at once: the order is made here, not by arrival.
      expectations: [...this.byExpectation.values()]
        .sort(
          (a, b) => byText(a.eval, b.eval) || byText(a.condition, b.condition) || a.index - b.index,
        )
        .map(({ acc, index: _index, ...rest }) => ({ ...rest, stats: acc.stats() })),
      comparisons,
      // In the evals' order, as the expectations (runs are read a few at once).
      evals: [...this.byEval.values()]
        .sort((a, b) => byText(a.eval, b.eval) || byText(a.condition, b.condition))
        .map((e) => ({ eval: e.eval, condition: e.condition, all_passed: e.all.stats() })),
      ...(blind.length > 0 ? { blind } : {}),
    };
  }
}

const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The blind comparisons found under comparisons/ (see listComparisons), as win rates. */
async function readBlind(outDir: string): Promise<BlindGrading[]> {
  const found: BlindGrading[] = [];
  for (const { conditions: pair, files } of await listComparisons(outDir)) {
    let judged = 0;
    let ties = 0;
    let errors = 0;
    let fellBack = 0;
    const wins = new Map<string, number>();
    for (const file of files) {
      const read = await readComparison(file);
      if (read.status !== 'ok') continue; // a comparison not whole is no verdict
      const c = read.value;
      if (c.conditions[0] !== pair[0] || c.conditions[1] !== pair[1]) continue;
      if (c.status !== 'judged' || c.winner === null) {
        errors++;
        continue;
      }
      judged++;
      if (c.fell_back) fellBack++;
      if (c.winner === 'tie') ties++;
      else wins.set(c.winner, (wins.get(c.winner) ?? 0) + 1);
    }
    if (judged + errors === 0) continue;
    found.push({
      conditions: [pair[0], pair[1]],
      judged,
      ties,
      errors,
      ...(fellBack > 0 ? { fell_back: fellBack } : {}),
      wins: pair.map((condition) => {
        const acc = new RateAccumulator();
        acc.successes = wins.get(condition) ?? 0;
        acc.n = judged;
        return { condition, stats: acc.stats() };
      }),
    });
  }
  return found;
}
