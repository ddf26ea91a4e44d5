import type { MemoryBudget } from '../flight/index.js';

/**
 * Bytes of memory that bodies in flight may hold: request bodies as they arrive, responses
 * kept for the record, bodies waiting to be written. One budget is shared by every run's
 * gateway of a campaign, so `--jobs N` does not multiply what the host may hold; each
 * gateway also has a share of its own (a `parent` budget), so that one run's flood leaves
 * room for the others.
 *
 * ```ts
 * const campaign = new BodyBudget(256 * 1024 * 1024);
 * const run = new BodyBudget(64 * 1024 * 1024, campaign);
 * if (!run.take(chunk.length)) refuse(); // …later: run.give(chunk.length)
 * ```
 */
export class BodyBudget implements MemoryBudget {
  private used = 0;
  private high = 0;

  constructor(
    readonly bytes: number,
    private readonly parent?: BodyBudget,
  ) {}

  take(n: number): boolean {
    if (n < 0 || this.used + n > this.bytes) return false;
    if (this.parent && !this.parent.take(n)) return false;
    this.used += n;
    this.high = Math.max(this.high, this.used);
    return true;
  }

  give(n: number): void {
    const back = Math.min(n, this.used);
    this.used -= back;
    this.parent?.give(back);
  }

  /** Bytes held now. */
  inUse(): number {
    return this.used;
  }

  /** The most ever held at once. */
  peak(): number {
    return this.high;
  }
}

/** The default budget of a campaign's gateways together (256 MiB). */
export const CAMPAIGN_BODY_BUDGET = 256 * 1024 * 1024;
