import type { ScriptErrorAnswer, ScriptMessage } from './script.js';
import { OPENAI_ERRORS } from './openai.js';
import type { SeenRequest } from './request.js';

/** Why the model stopped, in Chat Completions' words. */
type FinishReason = 'stop' | 'tool_calls' | 'length';

/**
 * The OpenAI Chat Completions rendering of a scripted message (`POST /v1/chat/completions`):
 * one choice whose message joins the text blocks into `content` (null when there is none) and
 * lists the tool_use blocks as `tool_calls` (arguments as a JSON string). Usage as the API
 * counts it: prompt tokens hold the cached ones, which `prompt_tokens_details` names again;
 * `cache_creation_input_tokens` has no counterpart here and is not played.
 */
export function chatCompletion(scripted: ScriptMessage, model: string, n: number) {
  const texts = scripted.content.flatMap((b) => ('text' in b ? [b.text] : []));
  const toolCalls = scripted.content.flatMap((b, i) =>
    'tool_use' in b
      ? [
          {
            id: b.tool_use.id ?? `call_standin_${n}_${i}`,
            type: 'function' as const,
            function: { name: b.tool_use.name, arguments: JSON.stringify(b.tool_use.input) },
          },
        ]
      : [],
  );
  const finish: FinishReason =
    scripted.stop_reason === 'max_tokens'
      ? 'length'
      : scripted.stop_reason === 'tool_use' ||
          (scripted.stop_reason === undefined && toolCalls.length > 0)
        ? 'tool_calls'
        : 'stop';
  const u = scripted.usage ?? {};
  const cached = u.cache_read_input_tokens ?? 0;
  const prompt = (u.input_tokens ?? 0) + cached;
  const completion = u.output_tokens ?? 0;
  return {
    id: `chatcmpl-standin${String(n).padStart(6, '0')}`,
    object: 'chat.completion' as const,
    created: 0,
    model,
    system_fingerprint: null,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant' as const,
          content: texts.length > 0 ? texts.join('') : null,
          refusal: null,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        },
        logprobs: null,
        finish_reason: finish,
      },
    ],
    usage: {
      prompt_tokens: prompt,
      completion_tokens: completion,
      total_tokens: prompt + completion,
      prompt_tokens_details: { cached_tokens: cached, audio_tokens: 0 },
      completion_tokens_details: {
        reasoning_tokens: 0,
        audio_tokens: 0,
        accepted_prediction_tokens: 0,
        rejected_prediction_tokens: 0,
      },
    },
  };
}

export type ChatCompletion = ReturnType<typeof chatCompletion>;

/**
 * The completion as the API streams it: `data: {chunk}` frames of `chat.completion.chunk`
 * objects (no `event:` lines), then `data: [DONE]`. The first chunk carries the role, text comes
 * in content deltas, each tool call starts with a delta naming its index, id, type and name
 * (arguments "") and goes on with argument pieces under the same index; the last choice chunk
 * has the finish reason. With `includeUsage` (the request's `stream_options.include_usage`)
 * every chunk carries `"usage": null` and one chunk with no choices and the usage comes last.
 */
export function chatFrames(completion: ChatCompletion, includeUsage: boolean): string[] {
  const frames: string[] = [];
  const base = {
    id: completion.id,
    object: 'chat.completion.chunk',
    created: completion.created,
    model: completion.model,
    system_fingerprint: null,
  };
  const chunk = (delta: object, finish: FinishReason | null = null): void => {
    const choice = { index: 0, delta, logprobs: null, finish_reason: finish };
    const usage = includeUsage ? { usage: null } : {};
    frames.push(`data: ${JSON.stringify({ ...base, choices: [choice], ...usage })}\n\n`);
  };
  const choice = completion.choices[0]!;
  chunk({ role: 'assistant', content: '', refusal: null });
  for (const piece of pieces(choice.message.content ?? '')) chunk({ content: piece });
  (choice.message.tool_calls ?? []).forEach((call, index) => {
    const { name, arguments: args } = call.function;
    chunk({
      tool_calls: [{ index, id: call.id, type: 'function', function: { name, arguments: '' } }],
    });
    for (const piece of pieces(args)) {
      chunk({ tool_calls: [{ index, function: { arguments: piece } }] });
    }
  });
  chunk({}, choice.finish_reason);
  if (includeUsage) {
    frames.push(`data: ${JSON.stringify({ ...base, choices: [], usage: completion.usage })}\n\n`);
  }
  frames.push('data: [DONE]\n\n');
  return frames;
}

function pieces(text: string, size = 64): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/**
 * A scripted error as Chat Completions answers it: `{"error": {message, type, param, code}}`
 * with the type and code OpenAI gives its status (401 invalid_api_key, 403
 * unsupported_country_region_territory, 404 model_not_found…), `x-request-id` when an id is
 * given, `retry-after` (seconds) when the script gives one, and `x-should-retry: false` on a 400
 * so the OpenAI SDKs (which read it) never retry it. 529 is answered 503: OpenAI has no 529.
 */
export function chatError(
  answer: ScriptErrorAnswer['error'],
  id?: string,
): {
  status: number;
  headers: Record<string, string>;
  body: string;
} {
  const status = answer.status === 529 ? 503 : answer.status;
  const e = OPENAI_ERRORS[status] ?? OPENAI_ERRORS[500]!;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (id !== undefined) headers['x-request-id'] = id;
  if (answer.retry_after !== undefined) headers['retry-after'] = String(answer.retry_after);
  if (answer.status === 400) headers['x-should-retry'] = 'false';
  return {
    status,
    headers,
    body: JSON.stringify({
      error: { message: answer.message ?? e.message, type: e.type, param: null, code: e.code },
    }),
  };
}

/**
 * What the stand-in notes of a Chat Completions request: its model, whether it streams (and
 * asks for the usage chunk), how many messages it sends, and the tool results after the last
 * assistant message (`role: "tool"` messages; this API has no error flag on them).
 */
export function chatRequest(value: object): SeenRequest {
  const v = value as {
    model?: unknown;
    stream?: unknown;
    stream_options?: { include_usage?: unknown } | null;
    messages?: unknown;
  };
  const messages = Array.isArray(v.messages) ? (v.messages as unknown[]) : [];
  const toolResults: SeenRequest['toolResults'][number][] = [];
  for (let i = messages.length - 1; i >= 0 && toolResults.length < 100; i--) {
    const m = messages[i] as { role?: unknown; tool_call_id?: unknown; content?: unknown } | null;
    if (m?.role !== 'tool') break;
    toolResults.unshift({
      toolUseId: String(m.tool_call_id),
      isError: false,
      text: partsText(m.content).slice(0, 4000),
    });
  }
  return {
    model: typeof v.model === 'string' ? v.model : null,
    stream: v.stream === true,
    includeUsage: v.stream_options?.include_usage === true,
    messages: messages.length,
    toolResults,
  };
}

/** A message's content: a string, or text parts. */
function partsText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((c: { type?: unknown; text?: unknown }) => (c?.type === 'text' ? String(c.text) : ''))
    .join('');
}

/**
 * The stream of a completion the script cuts (`stream_error`): the role chunk and the first
 * content (or tool-call) chunk, then a `data: {"error": {…}}` chunk, as OpenAI-compatible
 * servers end a stream that failed after its start (the openai SDKs raise it), and no
 * `[DONE]`.
 */
export function chatFramesCut(
  completion: ChatCompletion,
  error: { readonly type: string; readonly message?: string },
): string[] {
  const head = chatFrames(completion, false).slice(0, 2);
  if (head[1]?.includes('"finish_reason":"')) head.pop();
  const body = {
    error: { message: error.message ?? 'stream cut', type: error.type, param: null, code: null },
  };
  head.push(`data: ${JSON.stringify(body)}\n\n`);
  return head;
}

/** The whole answer of a cut completion not streamed: the error itself (overloaded: 503). */
export function chatCutWhole(error: { readonly type: string; readonly message?: string }) {
  const status = error.type === 'overloaded_error' ? 529 : 500;
  return chatError({ status, ...(error.message ? { message: error.message } : {}) });
}
