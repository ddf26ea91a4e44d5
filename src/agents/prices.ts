/**
 * Model prices for agents whose stream reports tokens but no cost (Codex). USD per million
 * tokens. Versioned: a report names the table it priced with, and a new price is a new
 * version, never an edit of an old one.
 *
 * None of these could be checked against the vendor's price page from where this table was
 * written (no network): each says so in `source`, as "assumed list price". Check and replace
 * them before comparing costs across vendors; comparing conditions priced with the same table
 * stays sound either way.
 */
export interface ModelPrice {
  readonly inputPerMTok: number;
  /** Input tokens served from the provider's prompt cache. */
  readonly cachedInputPerMTok: number;
  readonly outputPerMTok: number;
  readonly source: string;
}

export const PRICE_TABLE_VERSION = '2026-11-30.1';

const ASSUMED = 'assumed list price (not verified here)';

export const MODEL_PRICES: Readonly<Record<string, ModelPrice>> = {
  'gpt-5': { inputPerMTok: 1.25, cachedInputPerMTok: 0.125, outputPerMTok: 10, source: ASSUMED },
  'gpt-5-codex': {
    inputPerMTok: 1.25,
    cachedInputPerMTok: 0.125,
    outputPerMTok: 10,
    source: ASSUMED,
  },
  'gpt-5.1': { inputPerMTok: 1.25, cachedInputPerMTok: 0.125, outputPerMTok: 10, source: ASSUMED },
  'gpt-5.1-codex': {
    inputPerMTok: 1.25,
    cachedInputPerMTok: 0.125,
    outputPerMTok: 10,
    source: ASSUMED,
  },
  'gpt-5-mini': {
    inputPerMTok: 0.25,
    cachedInputPerMTok: 0.025,
    outputPerMTok: 2,
    source: ASSUMED,
  },
  'gpt-5.1-codex-mini': {
    inputPerMTok: 0.25,
    cachedInputPerMTok: 0.025,
    outputPerMTok: 2,
    source: ASSUMED,
  },
};

/** Tokens as evalrig counts them: `input` excludes the cached part (`cacheRead`). */
export interface PricedTokens {
  readonly input: number;
  readonly output: number;
  readonly cacheRead: number;
}

/** The cost of `tokens` on `model` in USD (micro-dollar rounded), or null for an unknown model. */
export function priceTokens(model: string, tokens: PricedTokens): number | null {
  const p = Object.hasOwn(MODEL_PRICES, model) ? MODEL_PRICES[model] : undefined;
  if (!p) return null;
  const usd =
    (tokens.input * p.inputPerMTok +
      tokens.cacheRead * p.cachedInputPerMTok +
      tokens.output * p.outputPerMTok) /
    1e6;
  return Math.round(usd * 1e6) / 1e6;
}
