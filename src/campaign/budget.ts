import type { RunLimitName } from '../artifacts/index.js';
import type { RunLimits } from '../config/index.js';
import type { CallPricer, ModelCall } from '../flight/index.js';

/**
 * The campaign's spending against `--max-cost` (agents and judge together, at list prices):
 * every call the gateways relay is priced as it ends. No new run or turn starts once what is
 * spent plus what the turns in flight are expected to spend (the mean turn so far, each)
 * would pass the budget, and past the budget itself the gateways refuse further calls. The
 * budget is the campaign's, not the command's: what earlier commands in the same folder spent
 * (`before`, from the host's call logs there) counts against it too.
 *
 * ```ts
 * const budget = new CampaignBudget(10, { agent: 3.2, judge: 0.4 }); // 6.40 USD left
 * const turn = budget.startTurn(); // null: the budget is spent
 * budget.spend(0.12, 'agent');     // from each call relayed
 * turn?.end();
 * ```
 */
export class CampaignBudget {
  private spentUsd = { agent: 0, judge: 0 };
  private tokensBy = { agent: 0, judge: 0 };
  private turnsEnded = 0;
  private turnsCostUsd = 0;
  private inFlight = 0;
  /** Turns that the runs started have yet to start. */
  private turnsOwed = 0;

  constructor(
    readonly maxUsd?: number,
    /** What earlier commands of the campaign spent, agents and judge. */
    readonly before: Readonly<SpentUsd> = { agent: 0, judge: 0 },
  ) {
    if (maxUsd !== undefined && !(maxUsd > 0)) {
      throw new RangeError(`the campaign budget must be more than 0 USD, got ${maxUsd}`);
    }
  }

  /** USD spent so far by this command's agents and judge. */
  spent(): number {
    return this.spentUsd.agent + this.spentUsd.judge;
  }

  /** USD spent by the campaign: earlier commands and this one. */
  campaignSpent(): number {
    return this.before.agent + this.before.judge + this.spent();
  }

  /** What the budget leaves (undefined: no budget). */
  left(): number | undefined {
    return this.maxUsd === undefined ? undefined : Math.max(0, this.maxUsd - this.campaignSpent());
  }

  spentBy(who: 'agent' | 'judge'): number {
    return this.spentUsd[who];
  }

  /** Tokens billed so far by the agents or the judge. */
  tokens(who: 'agent' | 'judge'): number {
    return this.tokensBy[who];
  }

  spend(usd: number, who: 'agent' | 'judge', tokens = 0): void {
    if (Number.isFinite(usd) && usd > 0) this.spentUsd[who] += usd;
    if (Number.isFinite(tokens) && tokens > 0) this.tokensBy[who] += tokens;
  }

  /** Prices a relayed call and counts it as `who`'s: its tokens and cost (null: not priced). */
  spendCall(call: ModelCall, who: 'agent' | 'judge', price: CallPricer): CallFigures {
    const figures = callFigures(call, price);
    this.spend(figures.costUsd ?? 0, who, figures.tokens);
    return figures;
  }

  /** True once nothing more may be spent: the gateways refuse further calls. */
  exhausted(): boolean {
    return this.maxUsd !== undefined && this.campaignSpent() >= this.maxUsd;
  }

  /** What a turn is expected to cost: the mean of the turns ended so far (0 before any). */
  expectedTurnUsd(): number {
    return this.turnsEnded === 0 ? 0 : this.turnsCostUsd / this.turnsEnded;
  }

  /**
   * A run may start when the spent, the turns in flight, the turns the runs already started
   * still owe and this run's `turns` (each at the expected cost) stay within the budget: a
   * run is admitted whole, so the budget rarely cuts one half-way, whose spend a resume would
   * pay again. Its turns then start through it; `end` gives back what it no longer owes.
   */
  startRun(turns: number): RunSpending | null {
    if (this.maxUsd !== undefined) {
      const owed = (this.inFlight + this.turnsOwed + turns) * this.expectedTurnUsd();
      if (this.exhausted() || this.campaignSpent() + owed > this.maxUsd * FLOAT_SLACK) return null;
    }
    this.turnsOwed += turns;
    let owes = turns;
    const settle = (n: number) => {
      this.turnsOwed -= n;
      owes -= n;
    };
    return {
      startTurn: () => {
        if (owes > 0) settle(1);
        return this.startTurn();
      },
      end: () => settle(owes),
    };
  }

  /**
   * A turn may start when the spent, the turns in flight and this one (each at the expected
   * cost) stay within the budget: its `end` gives the turn's cost back; null when it may not.
   */
  startTurn(): TurnSpending | null {
    if (this.maxUsd !== undefined) {
      const expected = (this.inFlight + 1) * this.expectedTurnUsd();
      if (this.exhausted() || this.campaignSpent() + expected > this.maxUsd * FLOAT_SLACK) {
        return null;
      }
    }
    this.inFlight++;
    let ended = false;
    return {
      end: (costUsd) => {
        if (ended) return;
        ended = true;
        this.inFlight--;
        this.turnsEnded++;
        this.turnsCostUsd += Number.isFinite(costUsd) && costUsd > 0 ? costUsd : 0;
      },
    };
  }
}

/** Sums of equal turns land a rounding error over a budget set to their total: not a pass. */
const FLOAT_SLACK = 1 + 1e-9;

/** A turn under way: `end` gives its cost back. */
export interface TurnSpending {
  end(costUsd: number): void;
}

/** A run admitted by the budget: its turns start through it (null: the budget cuts it). */
export interface RunSpending {
  startTurn(): TurnSpending | null;
  /** The run is over: the turns it did not play are owed no more. */
  end(): void;
}

/** USD spent, by whom. */
export interface SpentUsd {
  readonly agent: number;
  readonly judge: number;
}

/** A relayed call's billed tokens (all kinds) and its cost at list prices (null: unknown model). */
export interface CallFigures {
  readonly tokens: number;
  readonly costUsd: number | null;
}

export function callFigures(
  call: Pick<ModelCall, 'model' | 'tokens' | 'serverTools'>,
  price: CallPricer,
): CallFigures {
  const c = call.tokens;
  const t = {
    input: c.input ?? 0,
    output: c.output ?? 0,
    cacheRead: c.cacheRead ?? 0,
    cacheWrite: c.cacheWrite ?? 0,
  };
  const tokens = t.input + t.output + t.cacheRead + t.cacheWrite;
  const tools = call.serverTools;
  return { tokens, costUsd: call.model === null ? null : price(call.model, t, tools) };
}

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
