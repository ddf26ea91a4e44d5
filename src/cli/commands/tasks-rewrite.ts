/**
 * `--rewrite`'s model: asked once a task through a gateway of its own on the host, as the judge
 * is, spending from a budget of its own (`--rewrite-max-cost`) that the gateway enforces: a
 * call that would pass it is refused there (the host is the witness), and the task keeps its
 * commit's message, the report saying why.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { priceModelCall } from '../../agents/index.js';
import { CampaignBudget } from '../../campaign/index.js';
import { judgeFlightFiles } from '../../campaign-folder/index.js';
import type { JudgeSpec } from '../../config/index.js';
import { InputError } from '../../errors/index.js';
import { askJudge, prepareJudgeModel } from '../../judge/index.js';
import type { MineOptions } from '../../mine/index.js';

export interface RewriteFlags {
  rewrite?: string;
  rewriteKeyEnv?: string;
  rewriteModel?: string;
  rewriteMaxCost?: string;
}

/** `--rewrite-max-cost`: USD above 0, or none (no budget). */
export function rewriteBudgetOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const usd = Number(value);
  if (!(Number.isFinite(usd) && usd > 0))
    throw new InputError(`--rewrite-max-cost must be a number of USD above 0, got "${value}"`);
  return usd;
}

/**
 * Why the gateway refuses the next call, or nothing: the budget spent, or the mean call so far
 * would pass it (a call's cost is known only once it ends, so the mean stands for the next).
 */
export function budgetRefusal(budget: CampaignBudget, calls: number): string | undefined {
  if (budget.maxUsd === undefined) return undefined;
  const spent = budget.spent();
  const usd = (n: number) => `${n.toFixed(4)} USD`;
  if (budget.exhausted())
    return `the rewrite's budget of ${usd(budget.maxUsd)} is spent (${usd(spent)} at list prices)`;
  const mean = calls === 0 ? 0 : spent / calls;
  if (spent + mean > budget.maxUsd)
    return `a rewrite (${usd(mean)} a call so far) would pass its budget of ${usd(budget.maxUsd)} (${usd(spent)} spent)`;
  return undefined;
}

/** The rewrite's model, its calls' flight records under `dir/<id>`. */
export async function rewriterOf(
  flags: RewriteFlags,
  dir: string,
): Promise<NonNullable<MineOptions['rewrite']>> {
  const url = /^https?:\/\//u.test(flags.rewrite!);
  if (url && (!flags.rewriteKeyEnv || !flags.rewriteModel))
    throw new InputError(
      '--rewrite with a URL needs --rewrite-key-env (the host variable of its key) and --rewrite-model',
    );
  const budget = new CampaignBudget(rewriteBudgetOf(flags.rewriteMaxCost));
  const spec: JudgeSpec = {
    model: url
      ? { url: flags.rewrite!, key_env: flags.rewriteKeyEnv! }
      : { script: path.resolve(flags.rewrite!) },
    api: 'messages',
    model_name: flags.rewriteModel ?? 'stand-in-rewriter',
    max_diff_bytes: 0,
    max_transcript_bytes: 0,
    max_tokens: 2048,
  };
  let calls = 0;
  const model = {
    ...(await prepareJudgeModel(spec, '--rewrite')),
    gateway: {
      admit: () => budgetRefusal(budget, calls),
      onCall: (call: Parameters<CampaignBudget['spendCall']>[0]) => {
        calls++;
        budget.spendCall(call, 'judge', priceModelCall);
      },
    },
  };
  return async (id, system, user) => {
    const flight = judgeFlightFiles(path.join(dir, id));
    await mkdir(path.dirname(flight.calls), { recursive: true });
    const reply = await askJudge(model, { system, user, flight });
    return { text: reply.text, ...(reply.error === undefined ? {} : { error: reply.error }) };
  };
}
