import type { RunLimitName } from '../artifacts/index.js';
import type { RunLimits } from '../config/index.js';
import type { CallPricer, ModelCall } from '../flight/index.js';
import type { CampaignBudget } from './budget.js';

/**
 * One run's figures as its gateway relays calls, against its limits (`limits` in the eval
 * set) and the campaign's budget: the first limit passed is the one the run reached, and from
 * then on its gateway refuses further calls (`refusal`).
 */
export class RunMeter {
  tokens = 0;
  costUsd = 0;
  requests = 0;
  /** The limit the run reached, first one first. */
  reached: RunLimitName | undefined;

  constructor(
    private readonly limits: RunLimits,
    private readonly budget: CampaignBudget,
    private readonly price: CallPricer,
  ) {}

  /** Counts a call once it is logged (refusals carry no tokens and are not requests). */
  onCall(call: ModelCall): void {
    if (call.outcome === 'refused') return;
    this.requests++;
    const figures = this.budget.spendCall(call, 'agent', this.price);
    this.tokens += figures.tokens;
    this.costUsd += figures.costUsd ?? 0;
    const { tokens: maxTokens, cost: maxCost } = this.limits;
    if (maxTokens !== undefined && this.tokens >= maxTokens) this.reached ??= 'tokens';
    if (maxCost !== undefined && this.costUsd >= maxCost) this.reached ??= 'cost';
  }

  /** Why the gateway must refuse the next call, or undefined to let it through. */
  refusal(): string | undefined {
    const max = this.limits.model_requests;
    if (this.reached === undefined && max !== undefined && this.requests >= max) {
      this.reached = 'model_requests';
    }
    if (this.reached === undefined && this.budget.exhausted()) this.reached = 'campaign_cost';
    if (this.reached === undefined) return undefined;
    return this.reached === 'campaign_cost'
      ? `the campaign's budget of ${this.budget.maxUsd} USD is spent`
      : `the run reached its limit of ${this.reached.replace('_', ' ')} (${this.limits[this.reached]})`;
  }
}
