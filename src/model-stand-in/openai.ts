import type { ScriptErrorAnswer, ScriptMessage } from './script.js';

/**
 * The OpenAI Responses API's rendering of a scripted message: text blocks become `message`
 * items with `output_text`, tool_use blocks `function_call` items whose arguments are the
 * input as a JSON string; usage as the Responses API counts it (cached tokens inside the input).
 */
export function responsesObject(scripted: ScriptMessage, model: string, n: number) {
  const output = scripted.content.map((block, i) =>
    'text' in block
      ? {
          type: 'message' as const,
          id: `msg_standin_${n}_${i}`,
          status: 'completed' as const,
          role: 'assistant' as const,
          content: [
            { type: 'output_text' as const, text: block.text, annotations: [] as unknown[] },
          ],
        }
      : {
          type: 'function_call' as const,
          id: `fc_standin_${n}_${i}`,
          call_id: block.tool_use.id ?? `call_standin_${n}_${i}`,
          name: block.tool_use.name,
          arguments: JSON.stringify(block.tool_use.input),
          status: 'completed' as const,
        },
  );
  const u = scripted.usage ?? {};
  const cached = u.cache_read_input_tokens ?? 0;
  const input = (u.input_tokens ?? 0) + cached;
  const outputTokens = u.output_tokens ?? 0;
  const incomplete = scripted.stop_reason === 'max_tokens';
  return {
    id: `resp_standin_${String(n).padStart(6, '0')}`,
    object: 'response' as const,
    created_at: 0,
    status: incomplete ? ('incomplete' as const) : ('completed' as const),
    incomplete_details: incomplete ? { reason: 'max_output_tokens' } : null,
    error: null,
    model,
    output,
    usage: {
      input_tokens: input,
      input_tokens_details: { cached_tokens: cached },
      output_tokens: outputTokens,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: input + outputTokens,
    },
  };
}

type ResponsesObject = ReturnType<typeof responsesObject>;

/**
 * The response as the Responses API streams it: response.created and response.in_progress,
 * per item output_item.added, its deltas (output_text.delta, or function_call_arguments.delta)
 * and their done events, output_item.done, then response.completed with the usage. Every event
 * carries its sequence_number.
 */
export function responsesFrames(response: ResponsesObject): string[] {
  const frames: string[] = [];
  let seq = 0;
  const frame = (type: string, data: object): void => {
    frames.push(
      `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...data })}\n\n`,
    );
  };
  const pending = { ...response, status: 'in_progress', output: [], usage: null };
  frame('response.created', { response: pending });
  frame('response.in_progress', { response: pending });
  response.output.forEach((item, output_index) => {
    if (item.type === 'message') {
      const text = item.content[0]!.text;
      frame('response.output_item.added', {
        output_index,
        item: { ...item, status: 'in_progress', content: [] },
      });
      const part = { type: 'output_text', text: '', annotations: [] };
      frame('response.content_part.added', {
        item_id: item.id,
        output_index,
        content_index: 0,
        part,
      });
      for (const delta of pieces(text)) {
        frame('response.output_text.delta', {
          item_id: item.id,
          output_index,
          content_index: 0,
          delta,
        });
      }
      frame('response.output_text.done', {
        item_id: item.id,
        output_index,
        content_index: 0,
        text,
      });
      frame('response.content_part.done', {
        item_id: item.id,
        output_index,
        content_index: 0,
        part: { ...part, text },
      });
    } else {
      frame('response.output_item.added', {
        output_index,
        item: { ...item, arguments: '', status: 'in_progress' },
      });
      for (const delta of pieces(item.arguments)) {
        frame('response.function_call_arguments.delta', { item_id: item.id, output_index, delta });
      }
      frame('response.function_call_arguments.done', {
        item_id: item.id,
        output_index,
        arguments: item.arguments,
      });
    }
    frame('response.output_item.done', { output_index, item });
  });
  frame(response.status === 'incomplete' ? 'response.incomplete' : 'response.completed', {
    response,
  });
  return frames;
}

/**
 * The response's stream ending in `response.failed`, as the Responses API documents it:
 * `response.created`, `response.in_progress`, then the failed response with its error (its
 * code the scripted type) and no usage.
 */
export function responsesFramesFailed(
  response: ResponsesObject,
  error: { readonly type: string; readonly message?: string },
): string[] {
  return responsesFrames(response)
    .slice(0, 2)
    .concat(
      `event: response.failed\ndata: ${JSON.stringify({
        type: 'response.failed',
        sequence_number: 2,
        response: failedResponse(response, error),
      })}\n\n`,
    );
}

/** The response failed with `error` (its code), its output and usage gone. */
export function failedResponse(
  response: ResponsesObject,
  error: { readonly type: string; readonly message?: string },
) {
  return {
    ...response,
    status: 'failed' as const,
    error: { code: error.type, message: error.message ?? 'The model failed to answer.' },
    output: [],
    usage: null,
  };
}

function pieces(text: string, size = 64): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  429: 'rate_limit_exceeded',
  500: 'server_error',
  529: 'server_error',
};

/** A scripted error as the Responses API answers it (529 is answered 503: OpenAI has no 529). */
export function responsesError(answer: ScriptErrorAnswer['error']): {
  status: number;
  headers: Record<string, string>;
  body: string;
} {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (answer.retry_after !== undefined) headers['retry-after'] = String(answer.retry_after);
  return {
    status: answer.status === 529 ? 503 : answer.status,
    headers,
    body: JSON.stringify({
      error: {
        message: answer.message ?? (answer.status === 400 ? 'invalid request' : 'overloaded'),
        type: ERROR_TYPES[answer.status] ?? 'server_error',
        param: null,
        code: null,
      },
    }),
  };
}
