import {
  claimPush,
  isObj,
  jsonObjectLines,
  str,
  TEXT_CAP,
  TRUNCATED_TYPE,
  type Obj,
  type TurnSummary,
} from '../stream.js';
import { StreamTally } from '../stream-tally.js';
import { COPILOT_CLI_REFUSALS } from './loading.js';

/**
 * Parses the stream of one `copilot --output-format json -p …` turn (Copilot CLI 1.0): one
 * event a line. Per answered model call an `assistant.message` (its text, its `toolRequests`
 * with the model's call ids, `apiCallId` the answer's id); per tool a `tool.execution_complete`
 * (`success`, a command's `shellExecution.exitCode`, a refusal's `error.message`); a failed call
 * is a `model.call_failure`, each retry an `assistant.turn_retry`; a failed turn a
 * `session.error`; last a `result` (`sessionId`, `exitCode`). It states no token counts: the
 * gateway's witness has them all. `session.skills_loaded` lists the skills it loaded (claimed).
 */
export function parseCopilotStream(
  text: string,
  options: { maxLineBytes?: number } = {},
): TurnSummary {
  const lines = jsonObjectLines(text, options.maxLineBytes ?? 4 * 1024 * 1024);
  const tally = new StreamTally();
  let sessionId: string | null = null;
  let truncated = false;
  let lastText: string | null = null;
  let answers = 0;
  let retries = 0;
  let error: string | null = null;
  let ended = false;
  let listed: string[] | null = null;
  for (const v of lines.objects) {
    const data = isObj(v.data) ? v.data : {};
    if (v.type === TRUNCATED_TYPE) truncated = true;
    else if (v.type === 'assistant.message') {
      answers++;
      lastText = answer(tally, data) ?? lastText;
    } else if (v.type === 'tool.execution_complete') toolDone(tally, data);
    else if (v.type === 'assistant.turn_retry') retries++;
    else if (v.type === 'session.error') error = errorOf(data);
    else if (v.type === 'session.skills_loaded') listed ??= skillNames(data);
    else if (v.type === 'result') {
      tally.terminals++;
      sessionId = str(v.sessionId, 100) ?? sessionId;
      ended = true;
      if (typeof v.exitCode === 'number' && v.exitCode !== 0)
        error ??= `the agent's result says exit ${v.exitCode}`;
    }
  }
  const tokens = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  return {
    finalMessage: error === null ? lastText : null,
    sessionId,
    toolCalls: tally.toolCalls(),
    modelRequests: answers,
    apiRetries: retries,
    tokens,
    costUsd: null,
    sessionCostUsd: null,
    error,
    complete: ended && error === null,
    skippedLines: lines.skipped,
    truncated,
    claim: tally.claimOf(listed),
  };
}

/** An answered call: its id and text claimed, its tool calls counted; its text, if any. */
function answer(tally: StreamTally, data: Obj): string | null {
  claimPush(tally.claim.answerIds, str(data.apiCallId, 200));
  const content = str(data.content, TEXT_CAP);
  const said = content !== null && content.trim() !== '' ? content : null;
  tally.text(said);
  for (const t of Array.isArray(data.toolRequests) ? data.toolRequests : []) {
    if (!isObj(t)) continue;
    const id = str(t.toolCallId, 200);
    tally.tool(t.name, id, id);
  }
  return said;
}

/**
 * A tool's end: failed when it says so or its command exited non-zero; a call the agent
 * refused to run (its own policy, an error its adapter knows) ran nothing and failed nothing.
 */
function toolDone(tally: StreamTally, data: Obj): void {
  const e = isObj(data.error) ? data.error : {};
  const message = str(e.message, TEXT_CAP);
  if (message !== null && COPILOT_CLI_REFUSALS.some((r) => r.test(message))) return;
  const shell = isObj(data.shellExecution) ? data.shellExecution : {};
  const exit = shell.exitCode;
  if (data.success === false || (typeof exit === 'number' && exit !== 0))
    tally.toolFailed(data.toolCallId);
}

function errorOf(data: Obj): string {
  const message = str(data.message, TEXT_CAP);
  const status = typeof data.statusCode === 'number' ? `${data.statusCode} ` : '';
  if (message === null) return `${status}${str(data.errorType, 100) ?? 'session error'}`.trim();
  // Its message starts with the status already ("400 the model …"): not said twice.
  return message.startsWith(status) ? message : `${status}${message}`;
}

/** The names of the skills it says it loaded, enabled ones only. */
function skillNames(data: Obj): string[] {
  const skills = Array.isArray(data.skills) ? data.skills : [];
  return skills.flatMap((s) =>
    isObj(s) && s.enabled !== false && typeof s.name === 'string' ? [s.name.slice(0, 200)] : [],
  );
}
