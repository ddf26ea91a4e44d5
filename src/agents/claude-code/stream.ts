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

/**
 * Parses the stream-json of one `claude -p … --output-format stream-json --verbose` turn:
 * `system/init`, `assistant` lines (one per content block, sharing the message id), `user`
 * lines carrying tool results, `system/api_retry`, and the final `result`. Tokens come from the
 * result's `usage` (this turn's); the cost from `model_usage_since_last_result` (this turn's),
 * else the difference of `total_cost_usd` (the session's running total) with
 * `previousSessionCostUsd`. Lines longer than `maxLineBytes` or not JSON are counted, skipped.
 */
export function parseClaudeCodeStream(
  text: string,
  options: { previousSessionCostUsd?: number; maxLineBytes?: number } = {},
): TurnSummary {
  const maxLine = options.maxLineBytes ?? 4 * 1024 * 1024;
  const tally = new ClaudeTally();
  const lines = jsonObjectLines(text, maxLine);
  for (const v of lines.objects) tally.take(v);

  const { result, claim } = tally;
  const session = typeof result?.total_cost_usd === 'number' ? num(result.total_cost_usd) : null;
  const isError = result?.is_error === true;
  return {
    finalMessage: (result && !isError ? str(result.result, TEXT_CAP) : null) ?? tally.lastText,
    sessionId: tally.sessionId,
    toolCalls: {
      total: tally.total,
      failed: tally.failed,
      byName: Object.fromEntries(tally.byName),
    },
    modelRequests: tally.messageIds.size,
    apiRetries: tally.retries,
    tokens: resultTokens(result),
    costUsd: turnCost(result, session, options.previousSessionCostUsd),
    sessionCostUsd: session,
    error: isError
      ? (str(result?.result, TEXT_CAP) ?? tally.apiError ?? 'the agent reported an error')
      : null,
    complete: result !== null,
    skippedLines: lines.skipped,
    truncated: tally.truncated,
    claim: {
      ...claim,
      terminals: tally.terminals,
      starts: tally.starts,
      listedSkills: tally.listedSkills,
      stated: tally.stated,
    },
  };
}

/** What one turn's stream-json lines said so far, taken one line at a time. */
class ClaudeTally {
  readonly toolNames = new Map<string, string>();
  readonly byName = new Map<string, { count: number; failed: number }>();
  readonly messageIds = new Set<string>();
  total = 0;
  failed = 0;
  retries = 0;
  sessionId: string | null = null;
  lastText: string | null = null;
  result: Obj | null = null;
  apiError: string | null = null;
  truncated = false;
  readonly claim = {
    answerIds: [] as string[],
    texts: [] as string[],
    toolCallIds: [] as string[],
  };
  terminals = 0;
  starts = 0;
  listedSkills: string[] | null = null;
  readonly stated: TurnSummary['tokens'][] = [];

  take(v: Obj): void {
    if (v.type === TRUNCATED_TYPE) this.truncated = true;
    this.sessionId ??= str(v.session_id, 100);
    if (v.type === 'system' && v.subtype === 'api_retry') this.retries++;
    if (v.type === 'system' && v.subtype === 'init') {
      this.starts++;
      if (Array.isArray(v.skills) && this.listedSkills === null) {
        this.listedSkills = v.skills
          .slice(0, 500)
          .flatMap((k) => (typeof k === 'string' ? [k.slice(0, NAME_CAP)] : []));
      }
    }
    if (v.type === 'assistant' && isObj(v.message)) this.assistant(v, v.message);
    if (v.type === 'user' && isObj(v.message) && Array.isArray(v.message.content)) {
      this.toolResults(v.message.content);
    }
    if (v.type === 'result') {
      this.result = v;
      this.terminals++;
      if (this.stated.length < 100) this.stated.push(resultTokens(v));
      if (v.is_error !== true) claimPush(this.claim.texts, str(v.result, TEXT_CAP));
    }
  }

  /** An `assistant` line: one content block of a model answer (or the agent's own error text). */
  private assistant(v: Obj, m: Obj): void {
    const id = str(m.id, 200);
    // A "<synthetic>" message is the agent's own (an API error shown as text), not a model answer.
    const synthetic = m.model === '<synthetic>';
    if (id && !synthetic) this.messageIds.add(id);
    if (id && !synthetic && !this.claim.answerIds.includes(id)) claimPush(this.claim.answerIds, id);
    if (v.error !== undefined || v.is_api_error_message === true) {
      this.apiError = firstText(m.content) ?? this.apiError;
    }
    for (const block of Array.isArray(m.content) ? m.content : []) {
      if (!isObj(block)) continue;
      if (block.type === 'text' && !synthetic) {
        this.lastText = str(block.text, TEXT_CAP);
        claimPush(this.claim.texts, this.lastText);
      }
      if (block.type === 'tool_use') this.toolUse(block, synthetic);
    }
  }

  /** A tool call the answer asks for, counted under its name. */
  private toolUse(block: Obj, synthetic: boolean): void {
    const name = str(block.name, NAME_CAP) ?? '?';
    const toolId = str(block.id, 200);
    if (!synthetic) claimPush(this.claim.toolCallIds, toolId);
    if (toolId && this.toolNames.size < 100_000) this.toolNames.set(toolId, name);
    this.total++;
    const entry =
      this.byName.get(name) ?? (this.byName.size < MAX_NAMES ? { count: 0, failed: 0 } : undefined);
    if (entry) {
      entry.count++;
      this.byName.set(name, entry);
    }
  }

  /** A `user` line's tool results: the failed ones are counted against their call's name. */
  private toolResults(content: unknown[]): void {
    for (const block of content) {
      if (!isObj(block) || block.type !== 'tool_result' || block.is_error !== true) continue;
      this.failed++;
      const name = this.toolNames.get(String(block.tool_use_id));
      const entry = name ? this.byName.get(name) : undefined;
      if (entry) entry.failed++;
    }
  }
}

/** The tokens a result line states for the turn (its `usage`), 0 where it says none. */
function resultTokens(result: Obj | null): TurnSummary['tokens'] {
  const usage = isObj(result?.usage) ? result.usage : {};
  return {
    input: num(usage.input_tokens),
    output: num(usage.output_tokens),
    cacheRead: num(usage.cache_read_input_tokens),
    cacheWrite: num(usage.cache_creation_input_tokens),
  };
}

function firstText(content: unknown): string | null {
  if (!Array.isArray(content)) return null;
  for (const b of content) if (isObj(b) && b.type === 'text') return str(b.text, TEXT_CAP);
  return null;
}

/** This turn's cost: the per-turn model usage when reported, else the running total's step. */
function turnCost(
  result: Obj | null,
  session: number | null,
  previous: number | undefined,
): number | null {
  const since = result?.model_usage_since_last_result;
  if (isObj(since)) {
    let sum = 0;
    for (const m of Object.values(since)) if (isObj(m)) sum += num(m.costUSD);
    return round(sum);
  }
  if (session === null) return null;
  return round(Math.max(0, session - (previous ?? 0)));
}

/** Micro-dollars: the float noise of summed prices is not a difference between conditions. */
function round(usd: number): number {
  return Math.round(usd * 1e6) / 1e6;
}
