import type { ScriptRateLimits } from './script.js';

const MINUTE_MS = 60_000;

/**
 * The per-minute limits a script states, counted over the last minute of what the stand-in
 * answered, told in each answer's headers as the API tells them: Anthropic's
 * `anthropic-ratelimit-{requests,tokens}-{limit,remaining,reset}` (resets as RFC 3339 times),
 * OpenAI's `x-ratelimit-{limit,remaining,reset}-{requests,tokens}` (resets as durations such
 * as `1s` or `6m0s`). The stand-in only states them: it refuses nothing (a script's 429 does).
 */
export class RateWindow {
  private requests: number[] = [];
  private tokens: { at: number; n: number }[] = [];

  constructor(
    private readonly limits: ScriptRateLimits,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Counts one answered request and the tokens it served, and returns its headers in the
   * API's words; `exhausted` (a scripted 429) says no request is left.
   */
  headers(api: 'anthropic' | 'openai', tokens: number, exhausted = false): Record<string, string> {
    const now = this.now();
    this.requests = this.requests.filter((t) => t > now - MINUTE_MS).concat(now);
    this.tokens = this.tokens.filter((t) => t.at > now - MINUTE_MS);
    if (tokens > 0) this.tokens.push({ at: now, n: tokens });
    const h: Record<string, string> = {};
    const state = (kind: 'requests' | 'tokens', limit: number, used: number, oldest: number) => {
      const remaining = String(exhausted && kind === 'requests' ? 0 : Math.max(0, limit - used));
      const resetMs = Math.max(0, oldest + MINUTE_MS - now);
      if (api === 'anthropic') {
        h[`anthropic-ratelimit-${kind}-limit`] = String(limit);
        h[`anthropic-ratelimit-${kind}-remaining`] = remaining;
        h[`anthropic-ratelimit-${kind}-reset`] = new Date(now + resetMs).toISOString();
      } else {
        h[`x-ratelimit-limit-${kind}`] = String(limit);
        h[`x-ratelimit-remaining-${kind}`] = remaining;
        h[`x-ratelimit-reset-${kind}`] = duration(resetMs);
      }
    };
    const rpm = this.limits.requests_per_minute;
    if (rpm !== undefined) state('requests', rpm, this.requests.length, this.requests[0]!);
    const tpm = this.limits.tokens_per_minute;
    if (tpm !== undefined) {
      const used = this.tokens.reduce((n, t) => n + t.n, 0);
      state('tokens', tpm, used, this.tokens[0]?.at ?? now);
    }
    return h;
  }
}

/** A wait as OpenAI writes it: `250ms`, `12s`, `1m0s`. */
export function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const s = Math.ceil(ms / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${s % 60}s`;
}
