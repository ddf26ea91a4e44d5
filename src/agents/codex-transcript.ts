import { priceTokens } from './prices.js';
import { claimPush, jsonObjectLines, TRUNCATED_TYPE, type TurnSummary } from './transcript.js';

/** Codex's usage as `turn.completed` reports it: the thread's running totals after a resume. */
export interface CodexUsage {
  /** All input tokens, the cached ones included (the Responses API's count). */
  readonly input: number;
  readonly cachedInput: number;
  readonly cacheWrite: number;
  readonly output: number;
}

export const ZERO_CODEX_USAGE: CodexUsage = { input: 0, cachedInput: 0, cacheWrite: 0, output: 0 };

/** A turn's summary, and the running usage to carry into the next turn's parse. */
export interface CodexTurn {
  readonly summary: TurnSummary;
  /** The thread's running usage after this turn (unchanged when the turn reported none). */
  readonly usage: CodexUsage;
}

const TEXT_CAP = 64 * 1024;
const NAME_CAP = 100;
const MAX_NAMES = 200;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0);
const str = (v: unknown, cap: number): string | null =>
  typeof v === 'string' ? v.slice(0, cap) : null;

/** A turn's tokens from the thread's running totals after it (`now`) and before it. */
function turnTokens(now: CodexUsage, previous: CodexUsage): TurnSummary['tokens'] {
  const step = (a: number, b: number): number => Math.max(0, a - b);
  const cacheRead = step(now.cachedInput, previous.cachedInput);
  return {
    input: Math.max(0, step(now.input, previous.input) - cacheRead),
    output: step(now.output, previous.output),
    cacheRead,
    cacheWrite: step(now.cacheWrite, previous.cacheWrite),
  };
}

/**
 * Parses the stream of one `codex exec --json` turn (checked with 0.171.0): `thread.started`
 * (the thread id, to resume), `turn.started`, `item.started`/`item.completed` (agent messages,
 * command executions with their exit codes, file changes, tool calls, and `error` items that are
 * the CLI's warnings), top-level `error` events (its reconnect attempts), then `turn.completed`
 * with usage, or `turn.failed` with the error.
 *
 * Usage in `turn.completed` is the thread's running total: this turn's tokens are its step from
 * `previous`; input excludes the cached part, as for Claude. Codex reports no cost: it is priced
 * from the model's entry in the price table (null for a model the table lacks). The stream says
 * nothing of model requests: `modelRequests` is 0 here and the gateway's log counts them.
 */
export function parseCodexStream(
  text: string,
  options: {
    readonly previous?: CodexUsage;
    readonly model: string;
    readonly maxLineBytes?: number;
  },
): CodexTurn {
  const maxLine = options.maxLineBytes ?? 4 * 1024 * 1024;
  const previous = options.previous ?? ZERO_CODEX_USAGE;
  const byName = new Map<string, { count: number; failed: number }>();
  let total = 0;
  let failed = 0;
  let retries = 0;
  let threadId: string | null = null;
  let lastMessage: string | null = null;
  let usage: CodexUsage | null = null;
  let error: string | null = null;
  let ended = false;
  let truncated = false;
  const texts: string[] = [];
  const stated: TurnSummary['tokens'][] = [];
  let terminals = 0;
  let starts = 0;

  const countTool = (name: string, isFailure: boolean): void => {
    total++;
    if (isFailure) failed++;
    const entry =
      byName.get(name) ?? (byName.size < MAX_NAMES ? { count: 0, failed: 0 } : undefined);
    if (!entry) return;
    entry.count++;
    if (isFailure) entry.failed++;
    byName.set(name, entry);
  };

  const lines = jsonObjectLines(text, maxLine);
  for (const v of lines.objects) {
    switch (v.type) {
      case TRUNCATED_TYPE:
        truncated = true;
        break;
      case 'thread.started':
        threadId ??= str(v.thread_id, 100);
        starts++;
        break;
      case 'error':
        // The CLI's reconnect attempts ("Reconnecting... 2/5 (…)"); other errors end in turn.failed.
        if (/^Reconnecting\b/.test(str(v.message, 100) ?? '')) retries++;
        break;
      case 'item.completed':
        if (isObj(v.item)) {
          const item = v.item;
          const t = str(item.type, NAME_CAP) ?? '?';
          if (t === 'agent_message') {
            lastMessage = str(item.text, TEXT_CAP) ?? lastMessage;
            claimPush(texts, str(item.text, TEXT_CAP));
          } else if (t === 'command_execution') {
            const code = item.exit_code;
            countTool(t, item.status === 'failed' || (typeof code === 'number' && code !== 0));
          } else if (t === 'mcp_tool_call') {
            const name = `${str(item.server, NAME_CAP) ?? '?'}.${str(item.tool, NAME_CAP) ?? '?'}`;
            countTool(name.slice(0, NAME_CAP), item.status === 'failed');
          } else if (t === 'file_change' || t === 'web_search') {
            countTool(t, item.status === 'failed');
          }
          // `error` items are the CLI's warnings (an unknown model's metadata), `reasoning` and
          // `todo_list` its own notes: none is a tool call nor the turn's failure.
        }
        break;
      case 'turn.completed':
        ended = true;
        terminals++;
        if (isObj(v.usage)) {
          const u = v.usage;
          usage = {
            input: num(u.input_tokens),
            cachedInput: num(u.cached_input_tokens),
            cacheWrite: num(u.cache_write_input_tokens),
            output: num(u.output_tokens),
          };
          if (stated.length < 100) stated.push(turnTokens(usage, previous));
        }
        break;
      case 'turn.failed':
        ended = true;
        terminals++;
        error =
          (isObj(v.error) ? str(v.error.message, TEXT_CAP) : null) ?? 'the agent reported an error';
        break;
    }
  }
  const now = usage ?? previous;
  const tokens = turnTokens(now, previous);
  return {
    usage: now,
    summary: {
      finalMessage: error === null ? lastMessage : null,
      sessionId: threadId,
      toolCalls: { total, failed, byName: Object.fromEntries(byName) },
      modelRequests: 0,
      apiRetries: retries,
      tokens,
      costUsd: usage === null && error !== null ? 0 : priceTokens(options.model, tokens),
      sessionCostUsd: null,
      error,
      complete: ended,
      skippedLines: lines.skipped,
      truncated,
      // Codex names no answer or call ids of the model's (its item ids are its own).
      claim: {
        answerIds: [],
        texts,
        toolCallIds: [],
        terminals,
        starts,
        listedSkills: null,
        stated,
      },
    },
  };
}
