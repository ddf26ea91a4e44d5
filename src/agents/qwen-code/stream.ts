import { parseClaudeCodeStream } from '../claude-code/stream.js';
import type { TurnSummary } from '../stream.js';

/** How Qwen Code shows a failed model call: a text of its own, in a "successful" result. */
const API_ERROR = '[API Error: ';

/** A text cut at Qwen Code's error mark: what the model wrote before it (a stream cut mid-way). */
const beforeError = (t: string): string => {
  const at = t.indexOf(API_ERROR);
  return at < 0 ? t : t.slice(0, at);
};

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
  // The mark may follow the part of an answer a cut stream gave ("partly[API Error: …]").
  const failed = cc.finalMessage !== null && cc.finalMessage.includes(API_ERROR);
  const error = failed ? cc.finalMessage!.slice(cc.finalMessage!.indexOf(API_ERROR)) : cc.error;
  const texts = cc.claim.texts.map(beforeError).filter((t) => t !== '');
  return {
    running: cc.complete ? running : previous,
    summary: {
      ...cc,
      finalMessage: failed ? null : cc.finalMessage,
      error,
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
