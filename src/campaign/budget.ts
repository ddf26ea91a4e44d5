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
  private turnsEnded: number;
  private turnsCostUsd: number;
  private inFlight = 0;
  /** Turns that the runs started have yet to start. */
  private turnsOwed = 0;
  /** Runs waiting for the first turn's cost before they may be admitted. */
  private waiting: Array<() => void> = [];

  constructor(
    readonly maxUsd?: number,
    /** What earlier commands of the campaign spent, agents and judge. */
    readonly before: Readonly<SpentUsd> = { agent: 0, judge: 0 },
    /** The turns earlier commands played and what they cost: the first estimate of a turn. */
    learnt: Readonly<TurnsPlayed> = { turns: 0, costUsd: 0 },
  ) {
    if (maxUsd !== undefined && !(maxUsd > 0)) {
      throw new RangeError(`the campaign budget must be more than 0 USD, got ${maxUsd}`);
    }
    this.turnsEnded = learnt.turns;
    this.turnsCostUsd = learnt.costUsd;
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

  /**
   * What a turn is expected to cost: the mean of the turns the campaign ended so far, earlier
   * commands' included (0 before any).
   */
  expectedTurnUsd(): number {
    return this.turnsEnded === 0 ? 0 : this.turnsCostUsd / this.turnsEnded;
  }

  /**
   * Admits a run as {@link startRun} does, but while no turn of the campaign has ended (a turn's
   * cost is not known yet) only one run plays: the others wait for the first turn's cost, so
   * that the budget refuses a run whole rather than cut it half-way.
   */
  async admitRun(turns: number): Promise<RunSpending | null> {
    while (this.maxUsd !== undefined && this.turnsEnded === 0 && this.busy()) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    return this.startRun(turns);
  }

  private busy(): boolean {
    return this.inFlight > 0 || this.turnsOwed > 0;
  }

  /** A turn ended or a run gave back what it owed: the runs waiting look again. */
  private wake(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const resolve of waiting) resolve();
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
      if (n > 0) this.wake();
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
        this.wake();
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

/** Turns played and what they cost together (USD, list prices). */
export interface TurnsPlayed {
  readonly turns: number;
  readonly costUsd: number;
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
