/** What one turn's transcript says, once parsed. Every field comes from untrusted output. */
export interface TurnSummary {
  /** The agent's last message to the user (its result), or null. */
  readonly finalMessage: string | null;
  /** The session the agent reported, or null. */
  readonly sessionId: string | null;
  readonly toolCalls: {
    readonly total: number;
    /** Calls whose result came back as an error (a non-zero exit, a refused edit…). */
    readonly failed: number;
    readonly byName: Readonly<Record<string, { readonly count: number; readonly failed: number }>>;
  };
  /** Model requests that answered (distinct assistant messages). */
  readonly modelRequests: number;
  /** Retries the agent reported (e.g. after a 429 or 529). */
  readonly apiRetries: number;
  readonly tokens: {
    readonly input: number;
    readonly output: number;
    readonly cacheRead: number;
    readonly cacheWrite: number;
  };
  /** This turn's cost in USD (not the session's running total), or null if not reported. */
  readonly costUsd: number | null;
  /** The session's running cost after this turn, as reported, or null. */
  readonly sessionCostUsd: number | null;
  /** The agent's own error (an API error, a refused turn), or null. */
  readonly error: string | null;
  /** Whether the final `result` line was seen (absent: the turn was cut or crashed). */
  readonly complete: boolean;
  /** Lines that were not JSON objects, or longer than the line cap (skipped). */
  readonly skippedLines: number;
  /** The transcript was cut at its cap (it ends with the mark {@link markTruncated} adds). */
  readonly truncated: boolean;
  /** What the stream says the model answered: compared with what the gateway relayed. */
  readonly claim: StreamClaim;
}

/**
 * The parts of a stream that name the model's own answers, kept to be checked against the
 * witness (the gateway): an agent's stream is written by a process the agent controls, so
 * any of it may be forged.
 */
export interface StreamClaim {
  /** Answer ids the stream names (Claude Code's assistant message ids; none for Codex). */
  readonly answerIds: readonly string[];
  /** Texts the stream says the model wrote (capped like the witness's). */
  readonly texts: readonly string[];
  /** Ids of the tool calls the stream says the model asked for. */
  readonly toolCallIds: readonly string[];
  /** Lines that end a turn (a result, turn.completed or turn.failed): an agent writes one. */
  readonly terminals: number;
  /** Lines that start a session (system/init, thread.started): an agent writes one a turn. */
  readonly starts: number;
  /** The skills the agent's start-up line lists (Claude Code's system/init); null when none is shown. */
  readonly listedSkills: readonly string[] | null;
  /** The tokens each line that ends the turn states for it (one per such line). */
  readonly stated: readonly TurnSummary['tokens'][];
}

/** At most this many ids and texts are kept of a claim (the first ones). */
const CLAIM_CAP = 2000;

/** Adds `v` to a claim's list while it holds fewer than {@link CLAIM_CAP}. */
export function claimPush(list: string[], v: string | null): void {
  if (v !== null && list.length < CLAIM_CAP) list.push(v);
}

/** The `type` of the line evalrig appends to a transcript it cut at its cap. */
export const TRUNCATED_TYPE = 'evalrig_truncated';

/**
 * A transcript kept up to `capBytes`, as turns/turn-NN.jsonl holds it: when the stream was cut
 * there, the partial last line is dropped and a visible mark line is appended, so that neither
 * a reader nor the parser takes a cut stream for a whole one.
 */
export function markTruncated(kept: string, capBytes: number): string {
  const end = kept.lastIndexOf('\n');
  const whole = end < 0 ? '' : kept.slice(0, end + 1);
  return `${whole}${JSON.stringify({ type: TRUNCATED_TYPE, cap_bytes: capBytes })}\n`;
}

const TEXT_CAP = 64 * 1024;
const NAME_CAP = 100;
const MAX_NAMES = 200;

function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0;
}

function str(v: unknown, cap: number): string | null {
  return typeof v === 'string' ? v.slice(0, cap) : null;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The JSON objects of a stream of lines, in order; lines longer than
 * `maxLine`, not JSON, or not objects are counted in `skipped`.
 */
export function jsonObjectLines(
  text: string,
  maxLine: number,
): { objects: Obj[]; skipped: number } {
  const objects: Obj[] = [];
  let skipped = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let v: unknown;
    try {
      v = line.length > maxLine ? undefined : JSON.parse(line);
    } catch {
      v = undefined;
    }
    if (isObj(v)) objects.push(v);
    else skipped++;
  }
  return { objects, skipped };
}

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
