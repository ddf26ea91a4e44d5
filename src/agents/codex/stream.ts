import { priceTokens } from '../prices.js';
import {
  claimPush,
  isObj,
  jsonObjectLines,
  MAX_NAMES,
  NAME_CAP,
  num,
  str,
  TEXT_CAP,
  TRUNCATED_TYPE,
  type Obj,
  type TurnSummary,
} from '../stream.js';

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
  const tally = new CodexTally(previous);
  const lines = jsonObjectLines(text, maxLine);
  for (const v of lines.objects) tally.take(v);
  const { usage, error } = tally;
  const now = usage ?? previous;
  const tokens = turnTokens(now, previous);
  return {
    usage: now,
    summary: {
      finalMessage: error === null ? tally.lastMessage : null,
      sessionId: tally.threadId,
      toolCalls: {
        total: tally.total,
        failed: tally.failed,
        byName: Object.fromEntries(tally.byName),
      },
      modelRequests: 0,
      apiRetries: tally.retries,
      tokens,
      costUsd: usage === null && error !== null ? 0 : priceTokens(options.model, tokens),
      sessionCostUsd: null,
      error,
      complete: tally.ended,
      skippedLines: lines.skipped,
      truncated: tally.truncated,
      // Codex names no answer or call ids of the model's (its item ids are its own).
      claim: {
        answerIds: [],
        texts: tally.texts,
        toolCallIds: [],
        terminals: tally.terminals,
        starts: tally.starts,
        listedSkills: null,
        stated: tally.stated,
      },
    },
  };
}

/** What one turn's events said so far, taken one event at a time. */
class CodexTally {
  readonly byName = new Map<string, { count: number; failed: number }>();
  total = 0;
  failed = 0;
  retries = 0;
  threadId: string | null = null;
  lastMessage: string | null = null;
  usage: CodexUsage | null = null;
  error: string | null = null;
  ended = false;
  truncated = false;
  readonly texts: string[] = [];
  readonly stated: TurnSummary['tokens'][] = [];
  terminals = 0;
  starts = 0;

  constructor(private readonly previous: CodexUsage) {}

  take(v: Obj): void {
    switch (v.type) {
      case TRUNCATED_TYPE:
        this.truncated = true;
        break;
      case 'thread.started':
        this.threadId ??= str(v.thread_id, 100);
        this.starts++;
        break;
      case 'error':
        // The CLI's reconnect attempts ("Reconnecting... 2/5 (…)"); other errors end in turn.failed.
        if (/^Reconnecting\b/.test(str(v.message, 100) ?? '')) this.retries++;
        break;
      case 'item.completed':
        if (isObj(v.item)) this.itemCompleted(v.item);
        break;
      case 'turn.completed':
        this.ended = true;
        this.terminals++;
        if (isObj(v.usage)) this.turnUsage(v.usage);
        break;
      case 'turn.failed':
        this.ended = true;
        this.terminals++;
        this.error =
          (isObj(v.error) ? str(v.error.message, TEXT_CAP) : null) ?? 'the agent reported an error';
        break;
    }
  }

  /** An agent message, or a tool call with whether it failed. */
  private itemCompleted(item: Obj): void {
    const t = str(item.type, NAME_CAP) ?? '?';
    if (t === 'agent_message') {
      this.lastMessage = str(item.text, TEXT_CAP) ?? this.lastMessage;
      claimPush(this.texts, str(item.text, TEXT_CAP));
    } else if (t === 'command_execution') {
      const code = item.exit_code;
      this.countTool(t, item.status === 'failed' || (typeof code === 'number' && code !== 0));
    } else if (t === 'mcp_tool_call') {
      const name = `${str(item.server, NAME_CAP) ?? '?'}.${str(item.tool, NAME_CAP) ?? '?'}`;
      this.countTool(name.slice(0, NAME_CAP), item.status === 'failed');
    } else if (t === 'file_change' || t === 'web_search') {
      this.countTool(t, item.status === 'failed');
    }
    // `error` items are the CLI's warnings (an unknown model's metadata), `reasoning` and
    // `todo_list` its own notes: none is a tool call nor the turn's failure.
  }

  /** `turn.completed`'s usage: the thread's running totals. */
  private turnUsage(u: Obj): void {
    const usage = {
      input: num(u.input_tokens),
      cachedInput: num(u.cached_input_tokens),
      cacheWrite: num(u.cache_write_input_tokens),
      output: num(u.output_tokens),
    };
    this.usage = usage;
    if (this.stated.length < 100) this.stated.push(turnTokens(usage, this.previous));
  }

  private countTool(name: string, isFailure: boolean): void {
    this.total++;
    if (isFailure) this.failed++;
    const entry =
      this.byName.get(name) ?? (this.byName.size < MAX_NAMES ? { count: 0, failed: 0 } : undefined);
    if (!entry) return;
    entry.count++;
    if (isFailure) entry.failed++;
    this.byName.set(name, entry);
  }
}
