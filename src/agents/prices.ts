/**
 * Model prices: every cost evalrig reports is priced here, on the host, from the tokens the
 * model gateway saw (an agent's own cost is its claim). USD per million tokens. Versioned: a
 * report names the table it priced with, and a new price is a new version, never an edit of
 * an old one (2026-12-01.1 added the Claude models and cache writes; 2026-12-01.2 the Gemini and
 * Qwen models the new adapters ask for by default; 2026-12-02.1 the server tools' fees;
 * 2026-12-02.2 gpt-5.4, Copilot CLI's default; 2026-12-03.1 kimi-k2.6, Factory Droid's, and
 * grok-code-fast-1, Kilo Code's).
 *
 * None of these could be checked against the vendor's price page from where this table was
 * written (no network): each says so in `source`. Check and replace them before comparing
 * costs across vendors; comparing conditions priced with the same table stays sound either way.
 */
export interface ModelPrice {
  readonly inputPerMTok: number;
  /** Input tokens served from the provider's prompt cache. */
  readonly cachedInputPerMTok: number;
  /** Input tokens written to the prompt cache (the 5-minute rate; OpenAI bills none apart). */
  readonly cacheWritePerMTok: number;
  readonly outputPerMTok: number;
  readonly source: string;
}

export const PRICE_TABLE_VERSION = '2026-12-03.1';

const ASSUMED = 'assumed list price (not verified here)';
const CATALOG = "list price as Claude Code 2.1.332's model catalog states it (not verified here)";

/** A Claude pricing tier: input, output, cache write (5 minutes) and cache read per MTok. */
function claude(input: number, output: number, write: number, read: number): ModelPrice {
  return {
    inputPerMTok: input,
    outputPerMTok: output,
    cacheWritePerMTok: write,
    cachedInputPerMTok: read,
    source: CATALOG,
  };
}

/** An OpenAI price: a cache write is billed as input. */
function openai(input: number, cached: number, output: number): ModelPrice {
  return {
    inputPerMTok: input,
    cachedInputPerMTok: cached,
    cacheWritePerMTok: input,
    outputPerMTok: output,
    source: ASSUMED,
  };
}

/** A price with no cache writes billed apart (Gemini's and Qwen's implicit caches). */
function listed(input: number, cached: number, output: number): ModelPrice {
  return {
    inputPerMTok: input,
    cachedInputPerMTok: cached,
    cacheWritePerMTok: input,
    outputPerMTok: output,
    source: ASSUMED,
  };
}

export const MODEL_PRICES: Readonly<Record<string, ModelPrice>> = {
  'gpt-5': openai(1.25, 0.125, 10),
  'gpt-5-codex': openai(1.25, 0.125, 10),
  'gpt-5.1': openai(1.25, 0.125, 10),
  'gpt-5.1-codex': openai(1.25, 0.125, 10),
  'gpt-5-mini': openai(0.25, 0.025, 2),
  'gpt-5.4': openai(2.5, 0.25, 15),
  // Gemini: the prompt tier up to 200k tokens; Qwen: its first international tier.
  'gemini-2.5-pro': listed(1.25, 0.3125, 10),
  'gemini-2.5-flash': listed(0.3, 0.075, 2.5),
  'gemini-2.5-flash-lite': listed(0.1, 0.025, 0.4),
  'qwen3-coder-plus': listed(1, 0.1, 5),
  // Moonshot's Kimi K2.6, Factory Droid's default: an assumed price like the others.
  'kimi-k2.6': listed(0.95, 0.16, 4),
  // xAI's list price, as the models.dev catalogue built into Kilo Code 7.7.7 states it too.
  'grok-code-fast-1': listed(0.2, 0.02, 1.5),
  'gpt-5.1-codex-mini': openai(0.25, 0.025, 2),
  'claude-3-5-haiku': claude(0.8, 4, 1, 0.08),
  'claude-haiku-4-5': claude(1, 5, 1.25, 0.1),
  'claude-haiku-5-5': claude(0.1, 0.5, 0.125, 0.01),
  'claude-3-5-sonnet': claude(3, 15, 3.75, 0.3),
  'claude-3-7-sonnet': claude(3, 15, 3.75, 0.3),
  'claude-sonnet-4-0': claude(3, 15, 3.75, 0.3),
  'claude-sonnet-4-5': claude(3, 15, 3.75, 0.3),
  'claude-sonnet-4-6': claude(3, 15, 3.75, 0.3),
  'claude-sonnet-5': claude(2, 10, 2.5, 0.2),
  'claude-sonnet-5-5': claude(2, 10, 2.5, 0.1),
  'claude-opus-4-0': claude(15, 75, 18.75, 1.5),
  'claude-opus-4-1': claude(15, 75, 18.75, 1.5),
  'claude-opus-4-5': claude(5, 25, 6.25, 0.5),
  'claude-opus-4-6': claude(5, 25, 6.25, 0.5),
  'claude-opus-4-7': claude(5, 25, 6.25, 0.5),
  'claude-opus-4-8': claude(5, 25, 6.25, 0.5),
  'claude-opus-5': claude(5, 25, 6.25, 0.5),
  'claude-opus-5-5': claude(4, 20, 5, 0.2),
  'claude-fable-5': claude(10, 50, 12.5, 1),
  'claude-fable-5-1': claude(10, 50, 12.5, 0.25),
  'claude-fable-5-2': claude(8, 40, 10, 0.2),
  'claude-mythos-5': claude(10, 50, 12.5, 1),
  'claude-mythos-5-1': claude(10, 50, 12.5, 0.25),
  'claude-mythos-5-2': claude(8, 40, 10, 0.2),
};

/**
 * What the tools an API runs itself cost per request, on top of the tokens they bring in (the
 * search results are input tokens of the same call, priced above). The Messages API counts them
 * in `usage.server_tool_use`.
 */
export const SERVER_TOOL_PRICES = {
  /** USD per web search request. */
  webSearch: 10 / 1000,
  /** USD per web fetch request: none beyond the tokens of what was fetched. */
  webFetch: 0,
  source:
    "Anthropic's list prices for the web search tool (10 USD per 1,000 searches) and the web fetch tool (no charge beyond tokens), as its tool documentation states them; the web search fee is the one Claude Code 2.1.332 adds to its own cost (not verified here)",
} as const;

/** Server tools' requests of a call (the Messages API's `usage.server_tool_use`). */
export interface ServerToolRequests {
  readonly webSearch: number;
  readonly webFetch: number;
}

/** The fee of a call's server tool requests in USD (micro-dollar rounded). */
export function priceServerTools(tools: ServerToolRequests | undefined): number {
  if (!tools) return 0;
  const p = SERVER_TOOL_PRICES;
  return Math.round((tools.webSearch * p.webSearch + tools.webFetch * p.webFetch) * 1e6) / 1e6;
}

/** Tokens as evalrig counts them: `input` excludes the cached part (`cacheRead`) and cache writes. */
export interface PricedTokens {
  readonly input: number;
  readonly output: number;
  readonly cacheRead: number;
  readonly cacheWrite?: number;
}

/** The table's entry for `model`: its exact name, else without a date (`-20251101`) or `[1m]`. */
export function priceOf(model: string): ModelPrice | undefined {
  const names = [model, model.replace(/\[1m\]$/u, ''), model.replace(/-\d{8}$/u, '')];
  for (const name of names) if (Object.hasOwn(MODEL_PRICES, name)) return MODEL_PRICES[name];
  return undefined;
}

/** The cost of `tokens` on `model` in USD (micro-dollar rounded), or null for an unknown model. */
export function priceTokens(model: string, tokens: PricedTokens): number | null {
  const p = priceOf(model);
  if (!p) return null;
  const usd =
    (tokens.input * p.inputPerMTok +
      tokens.cacheRead * p.cachedInputPerMTok +
      (tokens.cacheWrite ?? 0) * p.cacheWritePerMTok +
      tokens.output * p.outputPerMTok) /
    1e6;
  return Math.round(usd * 1e6) / 1e6;
}

/**
 * One model call's cost on the host's table: its tokens at list prices plus the fees of the
 * server tools its usage counts (a web search is billed per request); null for a model the
 * table lacks. What the witness, the budget, the account and an export all price a call with.
 */
export function priceModelCall(
  model: string,
  tokens: PricedTokens,
  serverTools?: ServerToolRequests,
): number | null {
  const priced = priceTokens(model, tokens);
  if (priced === null) return null;
  return Math.round((priced + priceServerTools(serverTools)) * 1e6) / 1e6;
}
