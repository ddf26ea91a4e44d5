/**
 * One client of an upstream per campaign: every run's gateway (and the judge's) takes a
 * ticket here before it forwards a call, so that `--jobs N` runs share the upstream's limits
 * instead of each agent meeting them (and retrying) alone.
 *
 * - at most `maxInFlight` calls at once;
 * - at most `requestsPerMinute` calls started, and `tokensPerMinute` tokens billed, in any
 *   60 s window (a call's tokens are known once it ends: they count from then);
 * - a 429 or 529 pauses every call to the upstream for its `retry-after` (or a jittered
 *   backoff when absent), and a limit the upstream states in its rate-limit headers (lower
 *   than the one given) is learnt;
 * - the backoff doubles once per throttling, not once per answer: the calls already in flight
 *   when the upstream started refusing are refused too, and say nothing new;
 * - after a backoff (the upstream said nothing of how long), one call goes first as a probe and
 *   the others follow once it is answered: a burst still under way refuses one call, not all;
 * - a refused call's start leaves the per-minute window when the refusal's rate-limit headers
 *   show the upstream did not count it (else a burst would spend the window's starts).
 *
 * ```ts
 * const limiter = new UpstreamLimiter({ maxInFlight: 4, requestsPerMinute: 60 });
 * const ticket = await limiter.acquire(); // queued while the limits say so
 * ticket.answered(res.statusCode, res.headers); // a 429 pauses everyone
 * ticket.end(tokensBilled); // frees the slot, counts the tokens
 * ```
 */
export interface UpstreamLimits {
  /** Calls forwarded at once. */
  readonly maxInFlight?: number;
  /** Calls started in any 60 s window. */
  readonly requestsPerMinute?: number;
  /** Tokens (input, output, cache) billed in any 60 s window. */
  readonly tokensPerMinute?: number;
  /** The window the per-minute limits count in (default 60 000 ms; a load test shrinks time). */
  readonly windowMs?: number;
}

/** The clock and dice a limiter runs on (tests give their own). */
export interface LimiterClock {
  now(): number;
  /** Calls `fn` after `ms`; returns what cancels it. */
  after(ms: number, fn: () => void): () => void;
  /** A number in [0, 1), for the backoff's jitter. */
  random(): number;
}

const REAL_CLOCK: LimiterClock = {
  now: () => performance.now(),
  after: (ms, fn) => {
    const t = setTimeout(fn, ms);
    return () => clearTimeout(t);
  },
  random: () => Math.random(),
};

/** A call's place in the upstream: taken by `acquire`, ended once. */
export interface UpstreamTicket {
  /** How long the call waited behind the limits, in ms. */
  readonly queuedMs: number;
  /** The upstream's answer: a 429/529 pauses every call, its headers may teach the limits. */
  answered(status: number, headers: Readonly<Record<string, string | string[] | undefined>>): void;
  /** The call ended (whatever way): its slot is free, its tokens counted. Idempotent. */
  end(tokens: number): void;
}

/** What the limiter saw, for the campaign's account and the load test. */
export interface LimiterStats {
  readonly requests: number;
  readonly peakInFlight: number;
  /** 429 and 529 answers. */
  readonly throttled: number;
  /** Summed over calls. */
  readonly queuedMs: number;
  readonly tokens: number;
  /** The limits in force now (given, or learnt from the upstream). */
  readonly limits: UpstreamLimits;
}

interface Waiter {
  readonly since: number;
  readonly admit: (t: UpstreamTicket) => void;
  readonly refuse: (e: Error) => void;
}

const MINUTE_MS = 60_000;
/** The longest pause a `retry-after` is honoured for (a bogus one never stalls a campaign). */
export const MAX_PAUSE_MS = 5 * 60_000;
// As the SDKs do: half a second, doubling, at most 8 s (jittered down to half).
const BACKOFF_BASE_MS = 500;
const BACKOFF_MAX_MS = 8000;
/** Statuses that say "slow down" for the whole upstream. */
const THROTTLED = new Set([429, 529]);

export class UpstreamLimiter {
  private limits: UpstreamLimits;
  private inFlight = 0;
  private starts: number[] = [];
  private billed: { at: number; tokens: number }[] = [];
  private pausedUntil = 0;
  private failures = 0;
  /** When the backoff last doubled: a refusal of a call started before it is the same one. */
  private escalatedAt = -Infinity;
  /** After a backoff: one call at a time until one is answered unrefused. */
  private probing = false;
  private probeOut = false;
  private readonly queue: Waiter[] = [];
  private cancelTimer: (() => void) | undefined;
  private timerAt = Infinity;
  private stats = { requests: 0, peakInFlight: 0, throttled: 0, queuedMs: 0, tokens: 0 };

  constructor(
    limits: UpstreamLimits = {},
    private readonly clock: LimiterClock = REAL_CLOCK,
  ) {
    checkLimits(limits);
    this.limits = { ...limits };
  }

  /** Waits for the call's turn; rejects (and leaves the queue) if `signal` aborts first. */
  acquire(signal?: AbortSignal): Promise<UpstreamTicket> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(new Error('aborted while queued'));
      const waiter: Waiter = { since: this.clock.now(), admit: resolve, refuse: reject };
      this.queue.push(waiter);
      signal?.addEventListener(
        'abort',
        () => {
          const i = this.queue.indexOf(waiter);
          if (i < 0) return;
          this.queue.splice(i, 1);
          reject(new Error('aborted while queued'));
          this.pump();
        },
        { once: true },
      );
      this.pump();
    });
  }

  /** Calls waiting now. */
  waiting(): number {
    return this.queue.length;
  }

  snapshot(): LimiterStats {
    return { ...this.stats, limits: { ...this.limits } };
  }

  /** Admits waiters in order while the limits allow, else arms a timer for the next chance. */
  private pump(): void {
    while (this.queue.length > 0) {
      const now = this.clock.now();
      const wait = this.waitFor(now);
      if (wait > 0) {
        if (Number.isFinite(wait)) this.wakeAt(now + wait);
        return;
      }
      const w = this.queue.shift()!;
      this.inFlight++;
      this.starts.push(now);
      this.stats.requests++;
      this.stats.peakInFlight = Math.max(this.stats.peakInFlight, this.inFlight);
      this.stats.queuedMs += now - w.since;
      const probe = this.probing;
      if (probe) this.probeOut = true;
      w.admit(this.ticket(now, now - w.since, probe));
    }
  }

  /** How long until the next call may start: 0 now, Infinity until a call ends. */
  private waitFor(now: number): number {
    if (this.pausedUntil > now) return this.pausedUntil - now;
    if (this.probing && this.probeOut) return Infinity;
    const { maxInFlight, requestsPerMinute: rpm, tokensPerMinute: tpm } = this.limits;
    // A start counts a little past its window: the upstream counts it from its arrival, later.
    const WINDOW_MS = (this.limits.windowMs ?? MINUTE_MS) * 1.02;
    if (maxInFlight !== undefined && this.inFlight >= maxInFlight) return Infinity;
    this.starts = this.starts.filter((t) => t > now - WINDOW_MS);
    if (rpm !== undefined && this.starts.length >= rpm) {
      return this.starts[this.starts.length - rpm]! + WINDOW_MS - now;
    }
    this.billed = this.billed.filter((b) => b.at > now - WINDOW_MS);
    if (tpm !== undefined) {
      let sum = this.billed.reduce((n, b) => n + b.tokens, 0);
      for (const b of this.billed) {
        if (sum < tpm) break;
        sum -= b.tokens;
        if (sum < tpm) return b.at + WINDOW_MS - now;
      }
    }
    return 0;
  }

  private wakeAt(at: number): void {
    if (this.cancelTimer && this.timerAt <= at) return;
    this.cancelTimer?.();
    this.timerAt = at;
    this.cancelTimer = this.clock.after(Math.max(1, at - this.clock.now()), () => {
      this.cancelTimer = undefined;
      this.timerAt = Infinity;
      this.pump();
    });
  }

  private ticket(startedAt: number, queuedMs: number, probe: boolean): UpstreamTicket {
    let ended = false;
    let probing = probe;
    // The probe's answer (or its end, unanswered) lets the next call go.
    const probeDone = () => {
      if (!probing) return;
      probing = false;
      this.probeOut = false;
    };
    return {
      queuedMs,
      answered: (status, headers) => {
        const wasProbe = probing;
        probeDone();
        this.answered(status, headers, startedAt, wasProbe);
      },
      end: (tokens) => {
        if (ended) return;
        ended = true;
        probeDone();
        this.inFlight--;
        const n = Number.isFinite(tokens) && tokens > 0 ? tokens : 0;
        this.billed.push({ at: this.clock.now(), tokens: n });
        this.stats.tokens += n;
        this.pump();
      },
    };
  }

  private answered(status: number, headers: Headers, startedAt: number, probe: boolean): void {
    const now = this.clock.now();
    this.learn(headers, now);
    if (!THROTTLED.has(status)) {
      if (status < 400) this.failures = 0;
      if (probe) this.probing = false;
      this.pump();
      return;
    }
    this.stats.throttled++;
    this.uncount(headers, startedAt, now);
    if (startedAt > this.escalatedAt) {
      this.failures++;
      this.escalatedAt = now;
    }
    const told = retryAfterMs(headers, Date.now());
    const backoff = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** (this.failures - 1));
    // Told how long, everyone may go then; guessing, one call goes first to see.
    if (told === undefined) this.probing = true;
    const pause = told ?? backoff * (0.5 + this.clock.random() / 2);
    this.pauseUntil(now + Math.min(pause, MAX_PAUSE_MS));
    this.pump();
  }

  /**
   * A refused call's start leaves the window when the refusal's rate-limit headers show the
   * upstream did not count it: what it says it counted (limit - remaining) is no more than the
   * calls started before this one. Without the headers the start stays (an API may count it).
   */
  private uncount(headers: Headers, startedAt: number, now: number): void {
    const counted = countedRequests(headers);
    if (counted === undefined) return;
    const window = this.limits.windowMs ?? MINUTE_MS;
    const i = this.starts.indexOf(startedAt);
    if (i < 0) return;
    const before = this.starts.filter((t) => t > now - window && t < startedAt).length;
    if (counted <= before) this.starts.splice(i, 1);
  }

  private pauseUntil(at: number): void {
    if (at <= this.pausedUntil) return;
    this.pausedUntil = at;
    this.pump();
  }

  /** Adopts a lower limit the upstream states; pauses until its reset when nothing remains. */
  private learn(headers: Headers, now: number): void {
    const learnt = learntLimits(headers);
    const lower = (given: number | undefined, told: number | undefined) =>
      told === undefined ? given : Math.min(given ?? told, told);
    this.limits = {
      ...this.limits,
      requestsPerMinute: lower(this.limits.requestsPerMinute, learnt.requestsPerMinute),
      tokensPerMinute: lower(this.limits.tokensPerMinute, learnt.tokensPerMinute),
    };
    if (learnt.exhaustedForMs !== undefined) {
      this.pauseUntil(now + Math.min(learnt.exhaustedForMs, MAX_PAUSE_MS));
    }
  }
}

type Headers = Readonly<Record<string, string | string[] | undefined>>;

function header(headers: Headers, name: string): string | undefined {
  const v = headers[name];
  return typeof v === 'string' ? v : undefined;
}

function checkLimits(limits: UpstreamLimits): void {
  for (const [name, v] of Object.entries(limits)) {
    if (v !== undefined && (!Number.isInteger(v) || (v as number) < 1)) {
      throw new RangeError(`upstream limit ${name} must be a whole number >= 1, got ${String(v)}`);
    }
  }
}

/** The wait an answer asks for, in ms: `retry-after-ms`, else `retry-after` (seconds or a date). */
export function retryAfterMs(headers: Headers, nowEpochMs: number): number | undefined {
  const ms = Number(header(headers, 'retry-after-ms'));
  if (header(headers, 'retry-after-ms') !== undefined && Number.isFinite(ms) && ms >= 0) return ms;
  const v = header(headers, 'retry-after')?.trim();
  if (v === undefined || v === '') return undefined;
  if (/^\d+(\.\d+)?$/u.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowEpochMs);
}

/** The requests an upstream says it counted in its window (limit - remaining), if it says. */
export function countedRequests(headers: Headers): number | undefined {
  const pair = (limit: string, remaining: string) => {
    const l = header(headers, limit);
    const r = header(headers, remaining);
    if (l === undefined || r === undefined || !/^\d+$/u.test(l) || !/^\d+$/u.test(r)) return;
    return Math.max(0, Number(l) - Number(r));
  };
  return (
    pair('anthropic-ratelimit-requests-limit', 'anthropic-ratelimit-requests-remaining') ??
    pair('x-ratelimit-limit-requests', 'x-ratelimit-remaining-requests')
  );
}

/** A duration as OpenAI's reset headers write it (`1s`, `6m0s`, `20ms`), in ms. */
export function durationMs(text: string): number | undefined {
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/gu)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== text.trim()) return undefined;
  const unit = { h: 3_600_000, m: 60_000, s: 1000, ms: 1 } as const;
  return parts.reduce((n, p) => n + Number(p[1]) * unit[p[2] as keyof typeof unit], 0);
}

/**
 * What an answer's rate-limit headers state: Anthropic's `anthropic-ratelimit-*` (resets as
 * RFC 3339 times) or OpenAI's `x-ratelimit-*` (resets as durations).
 */
export function learntLimits(
  headers: Headers,
  nowEpochMs: number = Date.now(),
): { requestsPerMinute?: number; tokensPerMinute?: number; exhaustedForMs?: number } {
  const num = (name: string): number | undefined => {
    const v = header(headers, name);
    return v !== undefined && /^\d+$/u.test(v) && Number(v) > 0 ? Number(v) : undefined;
  };
  const out: { requestsPerMinute?: number; tokensPerMinute?: number; exhaustedForMs?: number } = {};
  const rpm = num('anthropic-ratelimit-requests-limit') ?? num('x-ratelimit-limit-requests');
  const tpm = num('anthropic-ratelimit-tokens-limit') ?? num('x-ratelimit-limit-tokens');
  if (rpm !== undefined) out.requestsPerMinute = rpm;
  if (tpm !== undefined) out.tokensPerMinute = tpm;
  for (const kind of ['requests', 'tokens']) {
    const a = header(headers, `anthropic-ratelimit-${kind}-remaining`);
    const o = header(headers, `x-ratelimit-remaining-${kind}`);
    if (a === '0') {
      const at = Date.parse(header(headers, `anthropic-ratelimit-${kind}-reset`) ?? '');
      if (!Number.isNaN(at)) out.exhaustedForMs = Math.max(0, at - nowEpochMs);
    } else if (o === '0') {
      const ms = durationMs(header(headers, `x-ratelimit-reset-${kind}`) ?? '');
      if (ms !== undefined) out.exhaustedForMs = ms;
    }
  }
  return out;
}

/**
 * Wall time during which at least one of a gateway's calls waited behind the limiter: what a
 * turn is given back on its time-out (its calls waiting at once count once).
 */
export class QueuedTime {
  private waiting = 0;
  private since = 0;
  private total = 0;

  /** A call starts waiting at `at` (performance.now()). */
  enter(at: number = performance.now()): void {
    if (this.waiting++ === 0) this.since = at;
  }

  /** A call stops waiting at `at`: the limiter's own time of admission, not the event loop's. */
  leave(at: number = performance.now()): void {
    if (this.waiting === 0) return;
    if (--this.waiting === 0) this.total += Math.max(0, at - this.since);
  }

  /** Ms so far, the wait in progress included. */
  ms(): number {
    return this.total + (this.waiting > 0 ? performance.now() - this.since : 0);
  }
}

/**
 * A campaign's limiters, one per upstream (by URL): every run's gateway and the judge's that
 * call the same API share it. A model script has no upstream to share (each run plays its
 * own stand-in): no limiter.
 */
export class UpstreamLimiters {
  private readonly byUrl = new Map<string, UpstreamLimiter>();

  constructor(private readonly limits: UpstreamLimits = {}) {
    checkLimits(limits);
  }

  /** The limiter of `source`'s upstream, made at its first use; undefined for a script. */
  for(
    source: { readonly url: string } | { readonly script: unknown },
  ): UpstreamLimiter | undefined {
    if (!('url' in source)) return undefined;
    const key = new URL(source.url).href;
    let limiter = this.byUrl.get(key);
    if (!limiter) this.byUrl.set(key, (limiter = new UpstreamLimiter(this.limits)));
    return limiter;
  }

  /** What each upstream's limiter saw, by URL. */
  stats(): { readonly url: string; readonly stats: LimiterStats }[] {
    return [...this.byUrl].map(([url, l]) => ({ url, stats: l.snapshot() }));
  }
}
