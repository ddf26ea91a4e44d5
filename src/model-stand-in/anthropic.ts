import type { ScriptErrorAnswer, ScriptMessage, StopReason } from './script.js';

/** A content block as the Messages API returns it. */
type ApiBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

interface ApiUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
}

/** The message the API would return for one scripted response (the n-th, from 1). */
export function apiMessage(scripted: ScriptMessage, model: string, n: number) {
  const content: ApiBlock[] = scripted.content.map((block, i) =>
    'text' in block
      ? { type: 'text', text: block.text }
      : {
          type: 'tool_use',
          id: block.tool_use.id ?? `toolu_standin_${n}_${i}`,
          name: block.tool_use.name,
          input: block.tool_use.input,
        },
  );
  const stop: StopReason =
    scripted.stop_reason ?? (content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn');
  const u = scripted.usage ?? {};
  const usage: ApiUsage = {
    input_tokens: u.input_tokens ?? 0,
    output_tokens: u.output_tokens ?? 0,
    cache_read_input_tokens: u.cache_read_input_tokens ?? 0,
    cache_creation_input_tokens: u.cache_creation_input_tokens ?? 0,
  };
  return {
    id: `msg_standin_${String(n).padStart(6, '0')}`,
    type: 'message' as const,
    role: 'assistant' as const,
    model,
    content,
    stop_reason: stop,
    stop_sequence: null,
    usage,
  };
}

type ApiMessage = ReturnType<typeof apiMessage>;

/**
 * The message as the API streams it: message_start (usage with the input side and one output
 * token), per block content_block_start, deltas (text_delta, or input_json_delta for a tool's
 * input) and content_block_stop, then message_delta (stop reason, output tokens) and
 * message_stop. Each event is one `event: …\ndata: …\n\n` frame.
 */
export function sseFrames(message: ApiMessage): string[] {
  const frames: string[] = [];
  const frame = (type: string, data: object): void => {
    frames.push(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  };
  frame('message_start', {
    message: {
      ...message,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...message.usage, output_tokens: Math.min(1, message.usage.output_tokens) },
    },
  });
  frame('ping', {});
  message.content.forEach((block, index) => {
    if (block.type === 'text') {
      frame('content_block_start', { index, content_block: { type: 'text', text: '' } });
      for (const piece of pieces(block.text)) {
        frame('content_block_delta', { index, delta: { type: 'text_delta', text: piece } });
      }
    } else {
      frame('content_block_start', {
        index,
        content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
      });
      for (const piece of pieces(JSON.stringify(block.input))) {
        frame('content_block_delta', {
          index,
          delta: { type: 'input_json_delta', partial_json: piece },
        });
      }
    }
    frame('content_block_stop', { index });
  });
  frame('message_delta', {
    delta: { stop_reason: message.stop_reason, stop_sequence: null },
    usage: { output_tokens: message.usage.output_tokens },
  });
  frame('message_stop', {});
  return frames;
}

/**
 * The message's stream cut by an error, as the Messages API documents it: `message_start`
 * (its usage), a `ping`, the first block begun with one delta, then an `error` event (e.g.
 * `overloaded_error`, which is a 529 when not streamed) and nothing more.
 */
export function sseFramesCut(
  message: ApiMessage,
  error: { readonly type: string; readonly message?: string },
): string[] {
  const whole = sseFrames(message);
  const head = whole.slice(0, 2); // message_start, ping
  const firstBlock = whole.slice(2).filter((f) => /^event: content_block_(start|delta)/.test(f));
  head.push(...firstBlock.slice(0, 2));
  const data = {
    type: 'error',
    error: { type: error.type, message: error.message ?? 'Overloaded' },
  };
  head.push(`event: error\ndata: ${JSON.stringify(data)}\n\n`);
  return head;
}

/** Splits text into a few deltas, as a model streams it (never an empty delta). */
function pieces(text: string, size = 64): string[] {
  if (text === '') return [];
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

const ERROR_MESSAGES: Record<number, string> = {
  400: 'invalid request',
  429: 'rate limited',
  500: 'internal server error',
  529: 'Overloaded',
};

/** The status, headers and body the API answers for a scripted error. */
export function apiError(answer: ScriptErrorAnswer['error']): {
  status: number;
  headers: Record<string, string>;
  body: string;
} {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (answer.retry_after !== undefined) headers['retry-after'] = String(answer.retry_after);
  // The real API tells its SDK whether to retry; a scripted 400 must not be retried.
  headers['x-should-retry'] = answer.status === 400 ? 'false' : 'true';
  return {
    status: answer.status,
    headers,
    body: JSON.stringify({
      type: 'error',
      error: {
        type: ERROR_TYPES[answer.status] ?? 'api_error',
        message: answer.message ?? ERROR_MESSAGES[answer.status] ?? 'error',
      },
    }),
  };
}

/** An error the stand-in itself answers (not scripted): the API's error shape. */
export function standInError(status: number, message: string) {
  return apiError({ status: status as 400, message });
}
