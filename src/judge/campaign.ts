import type { JudgeIdentity, RunRecord } from '../artifacts/index.js';
import { readRun, runKey, runLayout, runNumbers } from '../campaign-folder/index.js';
import type { Eval, EvalSet } from '../config/index.js';
import { prepareJudgeModel, type JudgeModel } from './call.js';
import { compareRuns } from './compare.js';
import { gradeRun, type GradeContext, type GradeOutcome } from './grade.js';
import { leftOut } from '../measure/index.js';

/** What a grading pass did, in numbers. */
export interface GradeSummary {
  /** Runs the judge graded now. */
  graded: number;
  /** Runs whose grading.json was still good: no call. */
  cached: number;
  /** Runs whose grading is an error (recorded, not a fail). */
  errors: number;
  /** Blind comparisons judged now, answered from their file, or in error. */
  compared: number;
  comparedCached: number;
  compareErrors: number;
  /** Answers asked now that a judge script gave from its catch-all (no `when` fitted). */
  fellBack: number;
}

/** Judge calls at once: the judge is one upstream, and runs finish a few at a time. */
const CONCURRENCY = 2;

/** A run's folder in the campaign folder. */
const runDirOf = (outDir: string, evalId: string, condition: string, run: number): string =>
  runLayout(outDir, runKey(evalId, condition, run)).dir;

/**
 * Grades a campaign's runs with its eval set's judge: run by run as the campaign finishes
 * them ({@link CampaignGrader.gradeRun}, off the runs' critical path), then a sweep over every
 * finished run ({@link CampaignGrader.sweep}: runs of an earlier campaign, runs whose grading
 * is stale or an error) and the blind comparisons. Every answer is cached by its key, so a
 * sweep over graded runs calls nothing.
 */
export class CampaignGrader {
  readonly summary: GradeSummary = {
    graded: 0,
    cached: 0,
    errors: 0,
    compared: 0,
    comparedCached: 0,
    compareErrors: 0,
    fellBack: 0,
  };
  private readonly inFlight = new Map<string, Promise<void>>();
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  private constructor(
    private readonly evalSet: EvalSet,
    private readonly ctx: GradeContext & { readonly outDir: string },
  ) {}

  /**
   * The grader of a campaign, or undefined when nothing is to be graded: no eval has
   * expectations, or the eval set has no judge (then `log` says the expectations are not
   * graded). A judge whose key is not set refuses here, before anything runs.
   */
  static async prepare(
    evalSet: EvalSet,
    options: {
      readonly campaign: string;
      readonly outDir: string;
      readonly log: NodeJS.WritableStream;
      /** Ask again whatever is stored (`evalrig grade --force`). */
      readonly force?: boolean;
      /** The campaign's limiter and spending for the judge's gateways, given its source. */
      readonly gateway?: (source: JudgeModel['source']) => JudgeModel['gateway'];
    },
  ): Promise<CampaignGrader | undefined> {
    const withExpectations = evalSet.evals.filter((e) => e.expectations.length > 0);
    if (withExpectations.length === 0) return undefined;
    if (!evalSet.judge) {
      options.log.write(
        `evalrig: warning: ${withExpectations.length} eval(s) have expectations but the eval set has no "judge": expectations are not graded\n`,
      );
      return undefined;
    }
    const prepared = await prepareJudgeModel(evalSet.judge, evalSet.file);
    const hooks = options.gateway?.(prepared.source);
    const judge = hooks ? { ...prepared, gateway: hooks } : prepared;
    return new CampaignGrader(evalSet, {
      campaign: options.campaign,
      outDir: options.outDir,
      spec: evalSet.judge,
      judge,
      ...(options.force ? { force: true } : {}),
    });
  }

  /** Who grades: the judge's model, and its script's sha256 or its API (grading.json's `judge`). */
  get judge(): JudgeIdentity {
    return this.ctx.judge.identity;
  }

  private evalOf(id: string): Eval | undefined {
    const e = this.evalSet.evals.find((x) => x.id === id);
    return e && e.expectations.length > 0 ? e : undefined;
  }

  /** Grades one run folder (once per pass); a run not to be graded is left alone. */
  gradeRun(evalId: string, condition: string, run: number): Promise<void> {
    const runDir = runDirOf(this.ctx.outDir, evalId, condition, run);
    const known = this.inFlight.get(runDir);
    if (known) return known;
    const work = this.limited(async () => {
      const e = this.evalOf(evalId);
      if (!e) return;
      const record = await finishedRecord(runDir);
      if (!record) return;
      const { outcome, grading } = await gradeRun(this.ctx, { runDir, record, eval: e });
      this.count(outcome, 'graded', 'cached', 'errors');
      if (outcome !== 'cached' && grading.fell_back) this.summary.fellBack++;
    });
    // Kept when settled: a run graded in this pass is not counted again by the sweep.
    this.inFlight.set(runDir, work);
    return work;
  }

  /**
   * Grades every finished run of the eval set's evals found in the campaign folder that has
   * no good grading yet, then judges the blind comparisons. Returns the pass's numbers.
   */
  async sweep(): Promise<GradeSummary> {
    const jobs: Promise<void>[] = [];
    const found = new Map<string, Map<number, Map<string, string>>>();
    for (const e of this.evalSet.evals.filter((x) => x.expectations.length > 0)) {
      const byRun = new Map<number, Map<string, string>>();
      found.set(e.id, byRun);
      for (const c of this.evalSet.conditions) {
        for (const n of await runNumbers(this.ctx.outDir, e.id, c.name)) {
          jobs.push(this.gradeRun(e.id, c.name, n));
          if (!byRun.has(n)) byRun.set(n, new Map());
          byRun.get(n)!.set(c.name, runDirOf(this.ctx.outDir, e.id, c.name, n));
        }
      }
    }
    await Promise.all(jobs);
    const pair = this.evalSet.judge?.compare;
    if (pair) {
      const compares: Promise<void>[] = [];
      for (const [evalId, byRun] of found) {
        const e = this.evalOf(evalId)!;
        for (const [n, dirs] of byRun) {
          const [a, b] = [dirs.get(pair[0]), dirs.get(pair[1])];
          if (!a || !b) continue;
          compares.push(
            this.limited(async () => {
              const [ra, rb] = [await finishedRecord(a), await finishedRecord(b)];
              if (!ra || !rb) return;
              const { outcome, comparison } = await compareRuns(this.ctx, {
                eval: e,
                run: n,
                conditions: [pair[0], pair[1]],
                sides: {
                  [pair[0]]: { runDir: a, record: ra },
                  [pair[1]]: { runDir: b, record: rb },
                },
              });
              this.count(outcome, 'compared', 'comparedCached', 'compareErrors');
              if (outcome !== 'cached' && comparison.fell_back) this.summary.fellBack++;
            }),
          );
        }
      }
      await Promise.all(compares);
    }
    return { ...this.summary };
  }

  private count(
    outcome: GradeOutcome,
    graded: keyof GradeSummary,
    cached: keyof GradeSummary,
    errors: keyof GradeSummary,
  ): void {
    this.summary[outcome === 'graded' ? graded : outcome === 'cached' ? cached : errors]++;
  }

  private async limited<T>(work: () => Promise<T>): Promise<T> {
    while (this.running >= CONCURRENCY) await new Promise<void>((r) => this.waiting.push(r));
    this.running++;
    try {
      return await work();
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }
}

/** The run's record when its files are whole and it is the agent's outcome (no harness failure, no budget cut). */
async function finishedRecord(runDir: string): Promise<RunRecord | undefined> {
  const read = await readRun(runDir);
  if (read.status !== 'ok') return undefined;
  return leftOut(read.value.record) ? undefined : read.value.record;
}

/** One line saying what a grading pass did. */
/**
 * What errored in a grading pass, in words (for an exit status a CI reads), or undefined when
 * nothing did.
 *
 * @example
 * gradingErrors({ errors: 2, compareErrors: 1, ... }); // '2 grading error(s) and 1 blind comparison error(s)'
 */
export function gradingErrors(s: GradeSummary | undefined): string | undefined {
  if (!s || s.errors + s.compareErrors === 0) return undefined;
  const parts = [
    ...(s.errors ? [`${s.errors} grading error(s)`] : []),
    ...(s.compareErrors ? [`${s.compareErrors} blind comparison error(s)`] : []),
  ];
  return parts.join(' and ');
}

export function describeGradeSummary(s: GradeSummary): string {
  const runs = `grading: ${s.graded} run(s) graded by the judge, ${s.cached} unchanged (no call), ${s.errors} grading error(s)`;
  const blind =
    s.compared + s.comparedCached + s.compareErrors > 0
      ? `; blind comparison: ${s.compared} judged, ${s.comparedCached} unchanged, ${s.compareErrors} error(s)`
      : '';
  // A catch-all answer is the script's, not the run's: a grade that says nothing of it.
  const fell =
    s.fellBack > 0
      ? `; warning: ${s.fellBack} answer(s) came from the judge script's catch-all (a response without "when" while none with one fitted): see fell_back in grading.json and comparison.json`
      : '';
  return `${runs}${blind}${fell}`;
}
