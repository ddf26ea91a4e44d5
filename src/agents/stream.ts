/**
 * What every agent's stream reader gives and shares: a turn's summary and the claim it makes,
 * the stream's JSON lines, the mark of a cut transcript, and the caps on what is kept.
 */
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

/** Text kept of one message (as the witness caps its texts). */
export const TEXT_CAP = 64 * 1024;
/** Characters kept of a tool's name. */
export const NAME_CAP = 100;
/** Distinct tool names counted by name (the others count in the total alone). */
export const MAX_NAMES = 200;

export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
export const num = (v: unknown): number =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0;
export const str = (v: unknown, cap: number): string | null =>
  typeof v === 'string' ? v.slice(0, cap) : null;

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
