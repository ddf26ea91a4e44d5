import type { ScriptBlock, ScriptErrorAnswer, ScriptMessage, StopReason } from './script.js';

/** A content block as the Messages API returns it. */
type ApiBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'server_tool_use'; id: string; name: string; input: Record<string, unknown> };

interface ApiUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
  /** The server tools' requests, when the answer called one (`web_search`). */
  server_tool_use?: { web_search_requests: number };
}

/** The id the API gives each request: the `request-id` header, and `request_id` in errors. */
export function requestId(n: number): string {
  return `req_standin_${String(n).padStart(6, '0')}`;
}

/** One scripted block in the API's words (the n-th answer's i-th block). */
function apiBlock(block: ScriptBlock, n: number, i: number): ApiBlock {
  if ('text' in block) return { type: 'text', text: block.text };
  if ('thinking' in block) {
    // Opaque to the client, sent back as it came: the stand-in never checks it.
    const signature = Buffer.from(`evalrig-stand-in thinking ${n}.${i}`).toString('base64');
    return { type: 'thinking', thinking: block.thinking, signature };
  }
  if ('redacted_thinking' in block)
    return { type: 'redacted_thinking', data: block.redacted_thinking };
  if ('server_tool_use' in block) {
    const t = block.server_tool_use;
    return {
      type: 'server_tool_use',
      id: t.id ?? `srvtoolu_standin_${n}_${i}`,
      name: t.name,
      input: t.input,
    };
  }
  const t = block.tool_use;
  return { type: 'tool_use', id: t.id ?? `toolu_standin_${n}_${i}`, name: t.name, input: t.input };
}

/** The message the API would return for one scripted response (the n-th, from 1). */
export function apiMessage(scripted: ScriptMessage, model: string, n: number) {
  const content = scripted.content.map((block, i) => apiBlock(block, n, i));
  const stop: StopReason =
    scripted.stop_reason ?? (content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn');
  const u = scripted.usage ?? {};
  const usage: ApiUsage = {
    input_tokens: u.input_tokens ?? 0,
    output_tokens: u.output_tokens ?? 0,
    cache_read_input_tokens: u.cache_read_input_tokens ?? 0,
    cache_creation_input_tokens: u.cache_creation_input_tokens ?? 0,
  };
  const searches = content.filter((b) => b.type === 'server_tool_use' && b.name === 'web_search');
  if (searches.length > 0) usage.server_tool_use = { web_search_requests: searches.length };
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
 * token), a ping, per block content_block_start, deltas (text_delta; thinking_delta then
 * signature_delta; input_json_delta for a tool's input; none for redacted thinking, whole at
 * its start) and content_block_stop, then message_delta (stop reason, and the usage so far:
 * every field, cumulative) and message_stop. With `pings`, a ping after every delta. Each
 * event is one `event: …\ndata: …\n\n` frame.
 */
export function sseFrames(message: ApiMessage, pings = false): string[] {
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
    const delta = (d: object): void => {
      frame('content_block_delta', { index, delta: d });
      if (pings) frame('ping', {});
    };
    frame('content_block_start', { index, content_block: blockStart(block) });
    if (block.type === 'text') {
      for (const piece of pieces(block.text)) delta({ type: 'text_delta', text: piece });
    } else if (block.type === 'thinking') {
      for (const piece of pieces(block.thinking))
        delta({ type: 'thinking_delta', thinking: piece });
      delta({ type: 'signature_delta', signature: block.signature });
    } else if (block.type === 'tool_use' || block.type === 'server_tool_use') {
      for (const piece of pieces(JSON.stringify(block.input))) {
        delta({ type: 'input_json_delta', partial_json: piece });
      }
    }
    frame('content_block_stop', { index });
  });
  frame('message_delta', {
    delta: { stop_reason: message.stop_reason, stop_sequence: null },
    usage: message.usage,
  });
  frame('message_stop', {});
  return frames;
}

/** A block as its content_block_start holds it: empty, but for redacted thinking (whole). */
function blockStart(block: ApiBlock): ApiBlock {
  switch (block.type) {
    case 'text':
      return { ...block, text: '' };
    case 'thinking':
      return { ...block, thinking: '', signature: '' };
    case 'tool_use':
    case 'server_tool_use':
      return { ...block, input: {} };
    case 'redacted_thinking':
      return block;
  }
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

/** The error types the API documents per status (503 it does not: typed as its 500). */
const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  503: 'api_error',
  529: 'overloaded_error',
};

const ERROR_MESSAGES: Record<number, string> = {
  400: 'invalid request',
  401: 'invalid x-api-key',
  403: 'Your API key does not have permission to use the specified resource.',
  404: 'The requested resource could not be found.',
  413: 'Request exceeds the maximum allowed number of bytes.',
  429: 'rate limited',
  500: 'internal server error',
  503: 'service unavailable',
  529: 'Overloaded',
};

/** What the API never retries: a client error other than a rate limit. */
const NOT_TO_RETRY = new Set([400, 401, 403, 404, 413]);

/**
 * The status, headers and body the API answers for a scripted error: the documented type for
 * its status, and the request's id (`request_id`, as the header says it) when given.
 */
export function apiError(
  answer: ScriptErrorAnswer['error'],
  id?: string,
): {
  status: number;
  headers: Record<string, string>;
  body: string;
} {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (answer.retry_after !== undefined) headers['retry-after'] = String(answer.retry_after);
  // The real API tells its SDK whether to retry; a scripted client error must not be retried.
  headers['x-should-retry'] = NOT_TO_RETRY.has(answer.status) ? 'false' : 'true';
  return {
    status: answer.status,
    headers,
    body: JSON.stringify({
      type: 'error',
      error: {
        type: ERROR_TYPES[answer.status] ?? 'api_error',
        message: answer.message ?? ERROR_MESSAGES[answer.status] ?? 'error',
      },
      ...(id === undefined ? {} : { request_id: id }),
    }),
  };
}

/** An error the stand-in itself answers (not scripted): the API's error shape. */
export function standInError(status: 400 | 404 | 413 | 500, message: string, id?: string) {
  return apiError({ status, message }, id);
}
