import { parseClaudeCodeStream } from '../claude-code/stream.js';
import type { TurnSummary } from '../stream.js';

/** How Qwen Code shows a failed model call: a text of its own, in a "successful" result. */
const API_ERROR = /^\[API Error: /u;

/**
 * Parses the stream of one `qwen -p … --output-format stream-json` turn (Qwen Code 0.15): the
 * lines are Claude Code's (system/init, assistant, user with tool results, result), read by
 * the same parser, with what differs: its message ids are its own, not the model's (none is
 * claimed; its tool-call ids are the model's and are); `result.usage` is the session's running
 * total (`previous` is subtracted) and its `input_tokens` hold the cached ones; a failed model
 * call is a result whose text starts "[API Error: " with `is_error: false` and exit 0: an error
 * here, and no text of the model's.
 */
export function parseQwenStream(
  text: string,
  previous: TurnSummary['tokens'] = ZERO_TOKENS,
): { summary: TurnSummary; running: TurnSummary['tokens'] } {
  const cc = parseClaudeCodeStream(text);
  const running = cc.tokens;
  const step = (k: keyof TurnSummary['tokens']) => Math.max(0, running[k] - previous[k]);
  const cacheRead = step('cacheRead');
  const tokens = {
    input: Math.max(0, step('input') - cacheRead),
    output: step('output'),
    cacheRead,
    cacheWrite: 0,
  };
  const failed = cc.finalMessage !== null && API_ERROR.test(cc.finalMessage);
  const texts = cc.claim.texts.filter((t) => !API_ERROR.test(t));
  return {
    running: cc.complete ? running : previous,
    summary: {
      ...cc,
      finalMessage: failed ? null : cc.finalMessage,
      error: failed ? cc.finalMessage : cc.error,
      tokens,
      costUsd: null,
      sessionCostUsd: null,
      claim: { ...cc.claim, answerIds: [], texts, stated: cc.claim.stated.map(() => tokens) },
    },
  };
}

export const ZERO_TOKENS: TurnSummary['tokens'] = {
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
};
