import {
  isObj,
  jsonObjectLines,
  num,
  str,
  TEXT_CAP,
  TRUNCATED_TYPE,
  type Obj,
  type TurnSummary,
} from '../stream.js';
import { StreamTally } from '../stream-tally.js';

/** The id Cline gives a message it wrote itself when a turn failed (no model answered it). */
const OWN_ERROR = /^error_/u;

/**
 * Parses one turn as the cline-acp driver prints it (stand-in/cline-acp): a `session` line
 * naming the session; per message the turn added, a `message` line with the message as Cline
 * saved it (an assistant message per model answer: its text and `tool_use` blocks, its
 * `metrics`: its input with the cached part in it; a user message holds the prompt or the `tool_result`s); last a `result` line
 * (`stopReason`) or an `error` line (why the prompt failed). Retries are not shown: the gateway
 * counts them.
 */
export function parseClineStream(
  text: string,
  options: { maxLineBytes?: number } = {},
): TurnSummary {
  const lines = jsonObjectLines(text, options.maxLineBytes ?? 4 * 1024 * 1024);
  const tally = new StreamTally();
  const tokens = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  let answers = 0;
  let sessionId: string | null = null;
  let truncated = false;
  let lastText: string | null = null;
  let error: string | null = null;
  let ended = false;
  for (const v of lines.objects) {
    if (v.type === TRUNCATED_TYPE) truncated = true;
    else if (v.type === 'session') {
      sessionId ??= str(v.sessionId, 100);
      tally.starts++;
    } else if (v.type === 'message' && isObj(v.message)) {
      const m = v.message;
      if (m.role === 'assistant' && !OWN_ERROR.test(str(m.id, 200) ?? '')) {
        answers++;
        addUsage(tokens, m.metrics);
        for (const b of blocks(m)) {
          if (b.type === 'text') {
            const said = str(b.text, TEXT_CAP);
            if (said === null || said.trim() === '') continue;
            tally.text(said);
            lastText = said;
          } else if (b.type === 'tool_use') {
            const id = str(b.id, 200);
            tally.tool(b.name, id, id);
          }
        }
      } else if (m.role === 'user') {
        for (const b of blocks(m))
          if (b.type === 'tool_result' && failed(b)) tally.toolFailed(b.tool_use_id);
      }
    } else if (v.type === 'error') error ??= str(v.message, TEXT_CAP) ?? 'error';
    else if (v.type === 'result') {
      tally.terminals++;
      ended = v.stopReason === 'end_turn';
      if (!ended) error ??= `the turn stopped: ${str(v.stopReason, 100) ?? 'no reason given'}`;
    }
  }
  if (answers > 0) tally.claim.stated.push({ ...tokens });
  return {
    finalMessage: error === null ? lastText : null,
    sessionId,
    toolCalls: tally.toolCalls(),
    modelRequests: answers,
    apiRetries: 0,
    tokens,
    costUsd: null,
    sessionCostUsd: null,
    error,
    complete: ended && error === null,
    skippedLines: lines.skipped,
    truncated,
    claim: tally.claimOf(),
  };
}

function blocks(m: Obj): Obj[] {
  return Array.isArray(m.content) ? m.content.filter(isObj) : [];
}

/**
 * A tool result that says it failed: a command of `run_commands` that did not succeed (each
 * command's `success`), or a tool's `error`.
 */
function failed(b: Obj): boolean {
  if (b.is_error === true) return true;
  const c = b.content;
  if (Array.isArray(c))
    return c.some(
      (r) => isObj(r) && (r.success === false || (r.error !== undefined && r.success !== true)),
    );
  return isObj(c) && c.error !== undefined;
}

function addUsage(
  into: { -readonly [K in keyof TurnSummary['tokens']]: number },
  u: unknown,
): void {
  if (!isObj(u)) return;
  // Its inputTokens are the prompt's whole (Chat Completions' prompt_tokens), the cached part
  // among them: evalrig counts input without it.
  const cached = num(u.cacheReadTokens);
  into.input += Math.max(0, num(u.inputTokens) - cached);
  into.output += num(u.outputTokens);
  into.cacheRead += cached;
  into.cacheWrite += num(u.cacheWriteTokens);
}
