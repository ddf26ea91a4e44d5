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

export interface FamilyStreamOptions {
  readonly maxLineBytes?: number;
  /**
   * How a tool's error reads when the agent refused to run the call (its own permission rules):
   * such a call ran nothing and failed nothing. None: every error counts as failed.
   */
  readonly refusals?: readonly RegExp[];
}

/**
 * Parses the stream of one `run --format json` turn of OpenCode (1.18) or a fork of it (Kilo
 * Code 7.7): one JSON object a line, each naming its `sessionID`; per model call a
 * `step_start`, its `text` parts, its `tool_use` parts (`callID`, the model's id; `state.status`
 * completed or error, a command's exit in `state.metadata.exit`) and a `step_finish {reason,
 * tokens}` whose tokens are that call's (input without the cached part, output, reasoning, cache
 * read and write): summed here. A turn ends at a step whose reason is not `tool-calls`; it
 * writes no result line of its own. A failed model call is an `error` line (and exit 1).
 */
export function parseOpenCodeFamilyStream(
  text: string,
  options: FamilyStreamOptions = {},
): TurnSummary {
  const lines = jsonObjectLines(text, options.maxLineBytes ?? 4 * 1024 * 1024);
  const tally = new StreamTally();
  const tokens = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  let sessionId: string | null = null;
  let truncated = false;
  let lastText: string | null = null;
  let steps = 0;
  let error: string | null = null;
  let ended = false;
  for (const v of lines.objects) {
    if (v.type === TRUNCATED_TYPE) truncated = true;
    sessionId ??= str(v.sessionID, 100);
    const part = isObj(v.part) ? v.part : {};
    if (v.type === 'text') {
      lastText = str(part.text, TEXT_CAP);
      tally.text(lastText);
    } else if (v.type === 'tool_use') tool(tally, part, options.refusals ?? []);
    else if (v.type === 'step_finish') {
      steps++;
      addTokens(tokens, part.tokens);
      ended = part.reason !== 'tool-calls';
      if (ended) tally.terminals++;
    } else if (v.type === 'error') error = errorOf(v) ?? error;
  }
  tally.claim.stated.push({ ...tokens });
  return {
    finalMessage: error === null ? lastText : null,
    sessionId,
    toolCalls: tally.toolCalls(),
    modelRequests: steps,
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

/**
 * A tool part: counted, and failed when its state says error or its command exited non-zero,
 * unless its error is a refusal of the agent's own (the call never ran).
 */
function tool(tally: StreamTally, part: Obj, refusals: readonly RegExp[]): void {
  const id = str(part.callID, 200);
  tally.tool(part.tool, id, id);
  const state = isObj(part.state) ? part.state : {};
  const meta = isObj(state.metadata) ? state.metadata : {};
  const exit = meta.exit;
  const said = str(state.error, TEXT_CAP);
  if (state.status === 'error' && said !== null && refusals.some((r) => r.test(said))) return;
  if (state.status === 'error' || (typeof exit === 'number' && exit !== 0)) tally.toolFailed(id);
}

function addTokens(
  into: { -readonly [K in keyof TurnSummary['tokens']]: number },
  t: unknown,
): void {
  if (!isObj(t)) return;
  const cache = isObj(t.cache) ? t.cache : {};
  into.input += num(t.input);
  // evalrig's output holds the reasoning; OpenCode counts it apart.
  into.output += num(t.output) + num(t.reasoning);
  into.cacheRead += num(cache.read);
  into.cacheWrite += num(cache.write);
}

function errorOf(v: Obj): string | null {
  const e = isObj(v.error) ? v.error : {};
  const data = isObj(e.data) ? e.data : {};
  const name = str(e.name, 100) ?? 'error';
  const status = typeof data.statusCode === 'number' ? ` ${data.statusCode}` : '';
  const message = str(data.message, TEXT_CAP) ?? '';
  return `${name}${status}: ${message}`.slice(0, TEXT_CAP);
}
