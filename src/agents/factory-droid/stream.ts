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
import { FACTORY_DROID_REFUSALS } from './loading.js';

/**
 * The agent's own words when a command of its deny list ends a first turn: it writes them as
 * the call's result (after `Error: `), then as an assistant message (no model wrote it), then
 * as an `error` line.
 */
const ENDED_EARLY = /^(?:Error: )?Exec ended early: /u;

/**
 * Parses the stream of one `droid exec -o stream-json` turn (Factory Droid 0.225): one JSON
 * event a line, each naming its `session_id`. A `system/init` starts the turn; per answered
 * model call the agent's own message id (`id` of an assistant `message`, `messageId` of a
 * `tool_call`: counted once); its text; its `tool_call`s (`id` the model's call id); per call a
 * `tool_result` (`isError`, the error's `message` or the `value`); last a `completion`
 * (`finalText`, this turn's `usage`: input without the cached part). A failed turn writes
 * `error` lines instead (the first says why). Retries are not shown: the gateway counts them.
 */
export function parseFactoryDroidStream(
  text: string,
  options: { maxLineBytes?: number } = {},
): TurnSummary {
  const lines = jsonObjectLines(text, options.maxLineBytes ?? 4 * 1024 * 1024);
  const tally = new StreamTally();
  const answers = new Set<string>();
  const tokens = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  let sessionId: string | null = null;
  let truncated = false;
  let lastText: string | null = null;
  let error: string | null = null;
  let ended = false;
  for (const v of lines.objects) {
    sessionId ??= str(v.session_id, 100);
    if (v.type === TRUNCATED_TYPE) truncated = true;
    else if (v.type === 'system' && v.subtype === 'init') tally.starts++;
    else if (v.type === 'message' && v.role === 'assistant') {
      const said = str(v.text, TEXT_CAP);
      if (said === null || ENDED_EARLY.test(said)) continue;
      answer(answers, v.id);
      if (said.trim() === '') continue;
      tally.text(said);
      lastText = said;
    } else if (v.type === 'tool_call') {
      answer(answers, v.messageId);
      const id = str(v.id, 200);
      tally.tool(v.toolName ?? v.toolId, id, id);
    } else if (v.type === 'tool_result') toolDone(tally, v);
    else if (v.type === 'error') error ??= str(v.message, TEXT_CAP) ?? 'error';
    else if (v.type === 'completion') {
      tally.terminals++;
      ended = true;
      addUsage(tokens, v.usage);
      tally.claim.stated.push({ ...tokens });
      lastText = str(v.finalText, TEXT_CAP) ?? lastText;
    }
  }
  return {
    finalMessage: error === null ? lastText : null,
    sessionId,
    toolCalls: tally.toolCalls(),
    modelRequests: answers.size,
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

/** An answered model call, by the agent's id for its message (a text and its tool calls share it). */
function answer(answers: Set<string>, id: unknown): void {
  const s = str(id, 200);
  if (s !== null && answers.size < 100_000) answers.add(s);
}

/**
 * A tool's end: failed when it says so; a call the agent refused to run (Droid Shield, a form
 * its adapter knows; a command of its deny list, which also ends the turn) ran nothing and
 * failed nothing.
 */
function toolDone(tally: StreamTally, v: Obj): void {
  if (v.isError !== true) return;
  const e = isObj(v.error) ? v.error : {};
  const message = str(e.message, TEXT_CAP);
  const refused = [...FACTORY_DROID_REFUSALS, ENDED_EARLY];
  if (message !== null && refused.some((r) => r.test(message))) return;
  tally.toolFailed(v.id);
}

function addUsage(
  into: { -readonly [K in keyof TurnSummary['tokens']]: number },
  u: unknown,
): void {
  if (!isObj(u)) return;
  into.input += num(u.input_tokens);
  into.output += num(u.output_tokens);
  into.cacheRead += num(u.cache_read_input_tokens);
  into.cacheWrite += num(u.cache_creation_input_tokens);
}
