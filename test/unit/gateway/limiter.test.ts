import { expect } from 'chai';
import {
  UpstreamLimiter,
  learntLimits,
  retryAfterMs,
  type LimiterClock,
  type UpstreamTicket,
} from '../../../src/gateway/index.js';

/** A clock the test moves by hand: timers fire in order as `advance` passes them. */
class FakeClock implements LimiterClock {
  t = 0;
  private timers: { at: number; fn: () => void }[] = [];
  now(): number {
    return this.t;
  }
  after(ms: number, fn: () => void): () => void {
    const timer = { at: this.t + ms, fn };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((x) => x !== timer);
    };
  }
  random(): number {
    return 0.5;
  }
  async advance(ms: number): Promise<void> {
    const end = this.t + ms;
    for (;;) {
      this.timers.sort((a, b) => a.at - b.at);
      const next = this.timers[0];
      if (!next || next.at > end) break;
      this.timers.shift();
      this.t = next.at;
      next.fn();
      await settle();
    }
    this.t = end;
    await settle();
  }
}

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Starts `n` acquisitions and collects the tickets as they are given, in order. */
function take(limiter: UpstreamLimiter, n: number): UpstreamTicket[] {
  const got: UpstreamTicket[] = [];
  for (let i = 0; i < n; i++) void limiter.acquire().then((t) => got.push(t));
  return got;
}

describe('UpstreamLimiter', () => {
  it('holds calls in flight to the limit, admitting the next as one ends', async () => {
    const clock = new FakeClock();
    const limiter = new UpstreamLimiter({ maxInFlight: 2 }, clock);
    const got = take(limiter, 5);
    await settle();
    expect(got).to.have.length(2);
    got[0]!.end(10);
    got[0]!.end(10); // ending twice frees one slot only
    await settle();
    expect(got).to.have.length(3);
    expect(limiter.snapshot().peakInFlight).to.equal(2);
    expect(limiter.waiting()).to.equal(2);
  });

  it('starts at most requestsPerMinute calls in any 60 s window (and 2% past it: the upstream counts from arrival), and says how long each waited', async () => {
    const clock = new FakeClock();
    const limiter = new UpstreamLimiter({ requestsPerMinute: 3 }, clock);
    const got = take(limiter, 7);
    await settle();
    expect(got).to.have.length(3);
    for (const t of got) t.end(0);
    await clock.advance(61_199);
    expect(got).to.have.length(3);
    await clock.advance(1);
    expect(got).to.have.length(6);
    expect(got[3]!.queuedMs).to.equal(61_200);
    await clock.advance(61_200);
    expect(got).to.have.length(7);
  });

  it("a refused call's start leaves the window only when the refusal's rate-limit headers show the upstream did not count it", async () => {
    const limit = { 'anthropic-ratelimit-requests-limit': '3' };
    const cases = [
      { headers: { ...limit, 'anthropic-ratelimit-requests-remaining': '2' }, admitted: 2 },
      // The upstream counted two: the refused call among them.
      { headers: { ...limit, 'anthropic-ratelimit-requests-remaining': '1' }, admitted: 1 },
      { headers: {}, admitted: 1 }, // nothing said: it may have counted
    ];
    for (const { headers, admitted } of cases) {
      const clock = new FakeClock();
      const limiter = new UpstreamLimiter({ requestsPerMinute: 3 }, clock);
      const a = await limiter.acquire();
      a.answered(200, {});
      a.end(0);
      await clock.advance(10);
      const b = await limiter.acquire();
      b.answered(429, { 'retry-after': '1', ...headers });
      b.end(0);
      const later = take(limiter, 3);
      await clock.advance(1000);
      expect(later, JSON.stringify(headers)).to.have.length(admitted);
    }
  });

  it('holds new calls while the tokens billed in the window reach tokensPerMinute', async () => {
    const clock = new FakeClock();
    const limiter = new UpstreamLimiter({ tokensPerMinute: 1000 }, clock);
    const first = await limiter.acquire();
    first.end(600);
    await clock.advance(10_000);
    const second = take(limiter, 1);
    await settle();
    second[0]!.end(600); // 1200 billed in the window: over
    const third = take(limiter, 1);
    await clock.advance(51_199);
    expect(third).to.have.length(0);
    await clock.advance(1); // the first call's 600 leave the window (61.2 s)
    expect(third).to.have.length(1);
    expect(limiter.snapshot().tokens).to.equal(1200);
  });

  it("pauses every call for a 429's retry-after", async () => {
    const clock = new FakeClock();
    const limiter = new UpstreamLimiter({}, clock);
    const a = await limiter.acquire();
    a.answered(429, { 'retry-after': '7' });
    a.end(0);
    const later = take(limiter, 3);
    await clock.advance(6_999);
    expect(later).to.have.length(0);
    await clock.advance(1);
    expect(later).to.have.length(3);
    expect(limiter.snapshot().throttled).to.equal(1);
  });

  it('backs off with jitter, doubling, when a 529 says nothing', async () => {
    const clock = new FakeClock();
    const limiter = new UpstreamLimiter({}, clock);
    const waits: number[] = [];
    for (let i = 0; i < 3; i++) {
      const got = take(limiter, 1);
      await clock.advance(120_000);
      waits.push(got[0]!.queuedMs);
      got[0]!.answered(529, {});
      got[0]!.end(0);
    }
    // random() = 0.5: 0.75 of 0.5 s, then of 1 s (the first call never waited)
    expect(waits).to.deep.equal([0, 375, 750]);
  });

  it('doubles the backoff once per throttling: the calls in flight when it began are refused too, and say nothing new', async () => {
    const clock = new FakeClock();
    const limiter = new UpstreamLimiter({}, clock);
    const inFlight = take(limiter, 4);
    await settle();
    for (const t of inFlight) {
      t.answered(529, {});
      t.end(0);
    }
    const next = take(limiter, 1);
    await clock.advance(374);
    expect(next).to.have.length(0);
    await clock.advance(1); // 0.75 of 0.5 s: the first backoff, not the fourth (8 s)
    expect(next).to.have.length(1);
    expect(limiter.snapshot().throttled).to.equal(4);
  });

  it('after a backoff, lets one call go first as a probe: the rest follow its answer, or a doubled backoff if refused', async () => {
    const clock = new FakeClock();
    const limiter = new UpstreamLimiter({}, clock);
    const first = await limiter.acquire();
    first.answered(529, {});
    first.end(0);
    const waiting = take(limiter, 4);
    await clock.advance(375);
    expect(waiting).to.have.length(1); // the probe
    waiting[0]!.answered(529, {}); // the burst goes on
    waiting[0]!.end(0);
    await clock.advance(749);
    expect(waiting).to.have.length(1);
    await clock.advance(1); // 0.75 of 1 s
    expect(waiting).to.have.length(2); // a second probe
    waiting[1]!.answered(200, {});
    await settle();
    expect(waiting).to.have.length(4); // answered: the others go, before it ends
    expect(limiter.snapshot().peakInFlight).to.equal(3);
  });

  it('a probe that ends unanswered (its connection failed) lets the next call probe', async () => {
    const clock = new FakeClock();
    const limiter = new UpstreamLimiter({}, clock);
    const first = await limiter.acquire();
    first.answered(529, {});
    first.end(0);
    const waiting = take(limiter, 3);
    await clock.advance(375);
    expect(waiting).to.have.length(1);
    waiting[0]!.end(0);
    await settle();
    expect(waiting).to.have.length(2);
  });

  it('learns a lower limit from the rate-limit headers, and pauses until a reset when none remain', async () => {
    const clock = new FakeClock();
    const limiter = new UpstreamLimiter({ requestsPerMinute: 100 }, clock);
    const a = await limiter.acquire();
    a.answered(200, {
      'x-ratelimit-limit-requests': '50',
      'x-ratelimit-remaining-requests': '0',
      'x-ratelimit-reset-requests': '2s',
    });
    a.end(5);
    expect(limiter.snapshot().limits.requestsPerMinute).to.equal(50);
    const next = take(limiter, 1);
    await clock.advance(1_999);
    expect(next).to.have.length(0);
    await clock.advance(1);
    expect(next).to.have.length(1);
  });

  it('leaves the queue when the caller gives up', async () => {
    const clock = new FakeClock();
    const limiter = new UpstreamLimiter({ maxInFlight: 1 }, clock);
    const held = await limiter.acquire();
    const gone = new AbortController();
    const waiting = limiter.acquire(gone.signal);
    gone.abort();
    await waiting.then(
      () => expect.fail('admitted'),
      (e: Error) => expect(e.message).to.match(/aborted/),
    );
    await settle();
    expect(limiter.waiting()).to.equal(0);
    held.end(0);
  });

  it('refuses limits that are not whole numbers >= 1', () => {
    expect(() => new UpstreamLimiter({ maxInFlight: 0 })).to.throw(/maxInFlight/);
  });
});

describe('rate-limit headers', () => {
  it('reads retry-after-ms, retry-after in seconds and as a date', () => {
    expect(retryAfterMs({ 'retry-after-ms': '1500', 'retry-after': '9' }, 0)).to.equal(1500);
    expect(retryAfterMs({ 'retry-after': '2' }, 0)).to.equal(2000);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }, now)).to.equal(5000);
    expect(retryAfterMs({ 'retry-after': 'soon' }, now)).to.equal(undefined);
  });

  it("reads Anthropic's limits and reset times", () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    const got = learntLimits(
      {
        'anthropic-ratelimit-requests-limit': '50',
        'anthropic-ratelimit-tokens-limit': '40000',
        'anthropic-ratelimit-tokens-remaining': '0',
        'anthropic-ratelimit-tokens-reset': '2026-01-01T00:00:03Z',
      },
      now,
    );
    expect(got).to.deep.equal({
      requestsPerMinute: 50,
      tokensPerMinute: 40000,
      exhaustedForMs: 3000,
    });
  });
});
