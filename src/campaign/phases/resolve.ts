/**
 * The `resolve` phase of a campaign: the eval set read and planned, the
 * model's key and the staging checked, every codebase resolved. Nothing is
 * built or written yet: a bad input fails the whole command here.
 */
import type { ConditionsFile } from '../../artifacts/index.js';
import { EvalSetError, loadEvalSet, type Eval, type EvalSet } from '../../config/index.js';
import { readSequential } from '../../campaign-folder/index.js';
import { InputError } from '../../errors/index.js';
// The design alone: the rounds (decide/index.ts) play through the phases that import this one.
import { designOf, type DesignRecord } from '../decide/design.js';
import {
  CodebaseSourceError,
  resolveCodebases,
  type ResolvedCodebase,
} from '../../source/index.js';
import { stagingWarnings, unloadedError, type StagedInstruction } from '../../treatment/index.js';
import { treatmentsOf, upstreamOf } from '../agent.js';
import {
  budgetLine,
  spendingOf,
  spentBefore,
  turnsBefore,
  type CampaignSpending,
} from './spending.js';
import type { CampaignOptions } from '../options.js';
import { planRuns, type PlannedRun } from '../plan.js';
import { existingConditions } from './folder.js';

/** What the campaign knows before it touches an engine or the folder. */
export interface ResolvedCampaign {
  readonly evalSet: EvalSet;
  readonly planned: readonly PlannedRun[];
  readonly treatments: ReadonlyMap<string, readonly StagedInstruction[]>;
  readonly jobs: number;
  /** The conditions.json an earlier campaign left in the folder. */
  readonly previous: ConditionsFile | undefined;
  /** The planned evals with a codebase, in the order of `resolvedList`. */
  readonly withCodebase: readonly Eval[];
  readonly resolvedList: readonly ResolvedCodebase[];
  /** The campaign's budget and its limiters per upstream. */
  readonly spending: CampaignSpending;
  /** The sequential design (`--until-decided`), checked. */
  readonly sequential?: DesignRecord;
}

export async function resolveCampaign(
  outDir: string,
  options: CampaignOptions,
  log: NodeJS.WritableStream,
): Promise<ResolvedCampaign> {
  const evalSet: EvalSet = await loadEvalSet(options.evalSetFile);
  const planned = planRuns(evalSet, {
    only: options.only,
    conditions: options.conditions,
    runs: options.runs,
  });
  const sequential = options.untilDecided ? designOf(evalSet, planned) : undefined;
  if (!sequential) await refuseDecided(outDir);
  // A real API's key is read now: an unset variable refuses the campaign before anything exists.
  upstreamOf(evalSet, planned);
  // What each condition stages, to be seen reaching the model; said first when it cannot, and
  // refused when a condition would compare nothing (unless accepted on purpose).
  const warnings = await stagingWarnings(evalSet);
  for (const w of warnings) {
    const level = w.voids && !options.allowUnloaded ? 'error' : 'warning';
    log.write(`evalrig: ${level}: ${evalSet.file}#${w.pointer}: ${w.message}\n`);
  }
  const voiding = warnings.filter((w) => w.voids);
  if (voiding.length > 0 && !options.allowUnloaded) throw unloadedError(evalSet.file, voiding);
  const treatments = await treatmentsOf(evalSet);
  // The budget is the campaign's: what earlier commands in the folder spent counts against it
  // (read only when there is a budget: a large folder's logs are not read for nothing).
  const budgeted = (options.maxCostUsd ?? evalSet.max_cost_usd) !== undefined;
  const spending = budgeted
    ? spendingOf(evalSet, options, await spentBefore(outDir), await turnsBefore(outDir))
    : spendingOf(evalSet, options);
  const said = budgetLine(spending.budget);
  if (said !== null) log.write(`${said}\n`);
  const jobs = options.jobs ?? 1;
  if (!Number.isInteger(jobs) || jobs < 1)
    throw new InputError(`--jobs must be a whole number >= 1, got ${jobs}`);
  const previous = await existingConditions(outDir);

  // Resolve every codebase before anything is built: a bad source fails the whole command.
  const withCodebase = evalSet.evals.filter(
    (e) => e.codebase && planned.some((p) => p.eval.id === e.id),
  );
  const resolvedList = await resolveCodebases(
    withCodebase.map((e) => ({ source: e.codebase!.source, baseDir: e.codebase!.baseDir })),
    { cacheDir: options.cacheDir },
  ).catch((error: unknown) => {
    // Said at the JSON pointer that declares the source, as validation says its problems.
    const at =
      error instanceof CodebaseSourceError
        ? withCodebase.find((e) => e.codebase!.source === error.source)
        : undefined;
    if (!at?.codebase?.pointer) throw error;
    throw new EvalSetError(evalSet.file, [
      { pointer: at.codebase.pointer, message: (error as Error).message },
    ]);
  });
  const warned = new Set<string>();
  for (const r of resolvedList) {
    for (const w of r.warnings) {
      if (!warned.has(w)) log.write(`evalrig: warning: ${w}\n`);
      warned.add(w);
    }
  }
  return {
    evalSet,
    planned,
    treatments,
    jobs,
    previous,
    withCodebase,
    resolvedList,
    spending,
    ...(sequential ? { sequential } : {}),
  };
}

/** A folder played under the sequential test is resumed under it, never as a fixed design. */
async function refuseDecided(outDir: string): Promise<void> {
  const read = await readSequential(outDir);
  if (read.status === 'missing') return;
  const why = read.status === 'ok' ? read.value.text : read.problem;
  throw new InputError(
    `${outDir} was played with --until-decided (${why}): a fixed number of runs after its looks would not hold the test's error; resume it with --until-decided (a decided one plays nothing more), or choose another --out`,
  );
}
