/**
 * What a campaign may spend and how fast it may call each upstream: its budget (`--max-cost`
 * over the eval set's `max_cost_usd`) and one limiter per upstream (`--max-in-flight`, `--rpm`,
 * `--tpm` over the eval set's `rate_limits`), shared by every run's gateway and the judge's.
 */
import { callLogs, playedRuns, readCallLog } from '../../campaign-folder/index.js';
import type { EvalSet } from '../../config/index.js';
import { InputError } from '../../errors/index.js';
import { UpstreamLimiters, type UpstreamLimits } from '../../gateway/index.js';
import type { JudgeModel } from '../../judge/index.js';
import { priceCall } from '../agent.js';
import { CampaignBudget, callFigures, type SpentUsd, type TurnsPlayed } from '../budget.js';
import type { CampaignOptions } from '../options.js';

export interface CampaignSpending {
  readonly budget: CampaignBudget;
  readonly limiters: UpstreamLimiters;
}

/**
 * The campaign's budget and its limiters per upstream: flags over the eval set. `before` is
 * what earlier commands in the folder spent ({@link spentBefore}): it counts against the budget.
 */
export function spendingOf(
  evalSet: EvalSet,
  options: CampaignOptions,
  before?: SpentUsd,
  learnt?: TurnsPlayed,
): CampaignSpending {
  const max = options.maxCostUsd ?? evalSet.max_cost_usd;
  if (max !== undefined && !(Number.isFinite(max) && max > 0))
    throw new InputError(`--max-cost must be a number of USD above 0, got ${max}`);
  const r = evalSet.rate_limits;
  const limits: UpstreamLimits = {
    maxInFlight: options.rateLimits?.maxInFlight ?? r.max_in_flight,
    requestsPerMinute: options.rateLimits?.requestsPerMinute ?? r.requests_per_minute,
    tokensPerMinute: options.rateLimits?.tokensPerMinute ?? r.tokens_per_minute,
  };
  for (const [flag, v] of Object.entries(limits)) {
    if (v !== undefined && !(Number.isInteger(v) && v >= 1))
      throw new InputError(`the upstream limit ${flag} must be a whole number >= 1, got ${v}`);
  }
  return {
    budget: new CampaignBudget(max, before, learnt),
    limiters: new UpstreamLimiters(limits),
  };
}

/**
 * What earlier commands spent in the campaign folder `outDir`, at today's list prices: every
 * call the gateways logged there (the runs', replayed runs' and the judge's).
 */
export async function spentBefore(outDir: string): Promise<SpentUsd> {
  const spent = { agent: 0, judge: 0 };
  for (const log of await callLogs(outDir)) {
    for (const call of await readCallLog(log.file)) {
      spent[log.who] += callFigures(call, priceCall).costUsd ?? 0;
    }
  }
  return spent;
}

/**
 * The turns the folder's runs played and what their gateways logged for them, at today's list
 * prices: a resume knows what a turn costs before it admits its first run (the mean of its own
 * turns alone would admit its first `--jobs` runs with no estimate and cut some half-way).
 */
export async function turnsBefore(outDir: string): Promise<TurnsPlayed> {
  let turns = 0;
  let costUsd = 0;
  for (const run of await playedRuns(outDir)) {
    turns += run.turns;
    for (const call of run.calls) costUsd += callFigures(call, priceCall).costUsd ?? 0;
  }
  return { turns, costUsd };
}

/** The line said on start: what was spent before and what the budget leaves (null: no budget). */
export function budgetLine(budget: CampaignBudget): string | null {
  const before = budget.before.agent + budget.before.judge;
  const left = budget.left();
  const usd = (n: number): string => `${n.toFixed(2)} USD`;
  const spent = `spent before in this folder: ${usd(before)} at list prices`;
  if (left === undefined) return null;
  return `evalrig: ${spent}; the budget of ${usd(budget.maxUsd!)} leaves ${usd(left)}`;
}

/** The judge's gateway hooks: its upstream's limiter shared with the runs, spending from the same budget. */
export function judgeGateway(
  spending: CampaignSpending,
): (source: JudgeModel['source']) => JudgeModel['gateway'] {
  return (source) => {
    const limiter = spending.limiters.for(source);
    return {
      ...(limiter ? { limiter } : {}),
      onCall: (call) => void spending.budget.spendCall(call, 'judge', priceCall),
    };
  };
}
