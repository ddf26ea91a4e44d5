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

/**
 * Parses the stream of one `gemini -p … --output-format stream-json` turn (Gemini CLI 0.61):
 * `init {session_id, model}`, `message {role, content, delta}` (the model's text comes in
 * delta pieces, joined here into one text until a tool call or a user line), `tool_use
 * {tool_name, tool_id, parameters}`, `tool_result {tool_id, status: success|error, output}`,
 * and the final `result {status, error?, stats}`; stats are this turn's: `input_tokens` hold
 * the cached ones (`cached`), so input is their difference. Its tool ids are the agent's own
 * (the Gemini API gives calls none): none is claimed. An API error is `status: error` with its
 * message, and a non-zero exit.
 */
export function parseGeminiStream(
  text: string,
  options: { maxLineBytes?: number } = {},
): TurnSummary {
  const lines = jsonObjectLines(text, options.maxLineBytes ?? 4 * 1024 * 1024);
  const tally = new StreamTally();
  let sessionId: string | null = null;
  let truncated = false;
  let open: string | null = null;
  let lastText: string | null = null;
  let steps = 0;
  let inStep = false;
  let result: Obj | null = null;
  const close = (): void => {
    if (open !== null) tally.text(open);
    open = null;
  };
  for (const v of lines.objects) {
    if (v.type === TRUNCATED_TYPE) truncated = true;
    if (v.type === 'init') {
      tally.starts++;
      sessionId ??= str(v.session_id, 100);
    }
    // A model answer is a run of assistant text and tool calls between other lines.
    const model = (v.type === 'message' && v.role === 'assistant') || v.type === 'tool_use';
    if (model && !inStep) steps++;
    inStep = model;
    if (v.type === 'message' && v.role === 'assistant' && typeof v.content === 'string') {
      open = ((open ?? '') + v.content).slice(0, TEXT_CAP);
      lastText = open;
    } else if (v.type !== 'message' || v.role !== 'assistant') close();
    if (v.type === 'tool_use') tally.tool(v.tool_name, v.tool_id);
    if (v.type === 'tool_result' && v.status === 'error') tally.toolFailed(v.tool_id);
    if (v.type === 'result') {
      tally.terminals++;
      result = v;
      tally.claim.stated.push(statsTokens(v.stats));
    }
  }
  close();
  const failed = result !== null && result.status !== 'success';
  const error = isObj(result?.error) ? str(result.error.message, TEXT_CAP) : null;
  return {
    finalMessage: failed ? null : lastText,
    sessionId,
    toolCalls: tally.toolCalls(),
    modelRequests: steps,
    apiRetries: 0,
    tokens: statsTokens(result?.stats),
    costUsd: null,
    sessionCostUsd: null,
    error: failed ? (error ?? 'the agent reported an error') : null,
    complete: result !== null,
    skippedLines: lines.skipped,
    truncated,
    claim: tally.claimOf(),
  };
}

/** A result's stats in evalrig's convention (input without the cached part). */
function statsTokens(stats: unknown): TurnSummary['tokens'] {
  const s = isObj(stats) ? stats : {};
  const cached = num(s.cached);
  return {
    input: Math.max(0, num(s.input_tokens) - cached),
    output: num(s.output_tokens),
    cacheRead: cached,
    cacheWrite: 0,
  };
}
