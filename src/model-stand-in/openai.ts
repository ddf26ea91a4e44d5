import type { ScriptBlock, ScriptErrorAnswer, ScriptMessage, StreamError } from './script.js';

/** The id the API gives each request (the `x-request-id` header). */
export function openaiRequestId(n: number): string {
  return `req_standin${String(n).padStart(26, '0')}`;
}

/** One scripted block as an output item (the n-th answer's i-th block), or null: not played. */
function outputItem(block: ScriptBlock, n: number, i: number) {
  if ('text' in block) {
    return {
      type: 'message' as const,
      id: `msg_standin_${n}_${i}`,
      status: 'completed' as const,
      role: 'assistant' as const,
      content: [{ type: 'output_text' as const, text: block.text, annotations: [] as unknown[] }],
    };
  }
  if ('thinking' in block || 'redacted_thinking' in block) {
    // Reasoning: its summary (the thinking's text), or only encrypted content (redacted).
    const text = 'thinking' in block ? block.thinking : null;
    return {
      type: 'reasoning' as const,
      id: `rs_standin_${n}_${i}`,
      summary: text === null ? [] : [{ type: 'summary_text' as const, text }],
      encrypted_content: 'redacted_thinking' in block ? block.redacted_thinking : null,
    };
  }
  if (!('tool_use' in block)) return null; // a server tool: the Messages API's alone here
  return {
    type: 'function_call' as const,
    id: `fc_standin_${n}_${i}`,
    call_id: block.tool_use.id ?? `call_standin_${n}_${i}`,
    name: block.tool_use.name,
    arguments: JSON.stringify(block.tool_use.input),
    status: 'completed' as const,
  };
}

type OutputItem = NonNullable<ReturnType<typeof outputItem>>;

/**
 * The OpenAI Responses API's rendering of a scripted message: text blocks become `message`
 * items with `output_text`, thinking `reasoning` items with a summary (redacted thinking: its
 * data as `encrypted_content`, no summary), tool_use blocks `function_call` items whose
 * arguments are the input as a JSON string; usage as the Responses API counts it (cached
 * tokens inside the input).
 */
export function responsesObject(scripted: ScriptMessage, model: string, n: number) {
  const output = scripted.content
    .map((block, i) => outputItem(block, n, i))
    .filter((item): item is OutputItem => item !== null);
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
  response.output.forEach((item, output_index) => itemFrames(frame, item, output_index));
  frame(response.status === 'incomplete' ? 'response.incomplete' : 'response.completed', {
    response,
  });
  return frames;
}

type Frame = (type: string, data: object) => void;

/** One output item's events: added, its parts and deltas, done. */
function itemFrames(frame: Frame, item: OutputItem, output_index: number): void {
  const at = { item_id: item.id, output_index };
  if (item.type === 'message') {
    const text = item.content[0]!.text;
    frame('response.output_item.added', {
      output_index,
      item: { ...item, status: 'in_progress', content: [] },
    });
    const part = { type: 'output_text', text: '', annotations: [] };
    frame('response.content_part.added', { ...at, content_index: 0, part });
    for (const delta of pieces(text)) {
      frame('response.output_text.delta', { ...at, content_index: 0, delta });
    }
    frame('response.output_text.done', { ...at, content_index: 0, text });
    frame('response.content_part.done', { ...at, content_index: 0, part: { ...part, text } });
  } else if (item.type === 'reasoning') {
    frame('response.output_item.added', { output_index, item: { ...item, summary: [] } });
    item.summary.forEach(({ text }, summary_index) => {
      const part = { type: 'summary_text', text: '' };
      frame('response.reasoning_summary_part.added', { ...at, summary_index, part });
      for (const delta of pieces(text)) {
        frame('response.reasoning_summary_text.delta', { ...at, summary_index, delta });
      }
      frame('response.reasoning_summary_text.done', { ...at, summary_index, text });
      frame('response.reasoning_summary_part.done', {
        ...at,
        summary_index,
        part: { ...part, text },
      });
    });
  } else {
    frame('response.output_item.added', {
      output_index,
      item: { ...item, arguments: '', status: 'in_progress' },
    });
    for (const delta of pieces(item.arguments)) {
      frame('response.function_call_arguments.delta', { ...at, delta });
    }
    frame('response.function_call_arguments.done', { ...at, arguments: item.arguments });
  }
  frame('response.output_item.done', { output_index, item });
}

/**
 * The response's stream cut, as the Responses API documents it: `response.created`,
 * `response.in_progress`, then the failed response with its error (its code the scripted
 * type) and no usage (`response.failed`), or an `error` event (its code and message) that
 * ends the stream with no terminal response.
 */
export function responsesFramesFailed(response: ResponsesObject, error: StreamError): string[] {
  const data =
    error.event === 'error'
      ? { type: 'error', sequence_number: 2, ...errorEvent(error) }
      : { type: 'response.failed', sequence_number: 2, response: failedResponse(response, error) };
  return responsesFrames(response)
    .slice(0, 2)
    .concat(`event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`);
}

/** The `error` event's fields (ResponseErrorEvent: code, message, param). */
function errorEvent(error: StreamError) {
  return { code: error.type, message: error.message ?? 'The server had an error.', param: null };
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

/**
 * The error's type, code and message per status, as OpenAI's API answers them (its error-codes
 * guide; the types and codes as its SDKs and clients read them back). Chat Completions and the
 * Responses API share them.
 */
export const OPENAI_ERRORS: Readonly<
  Record<number, { readonly type: string; readonly code: string | null; readonly message: string }>
> = {
  400: { type: 'invalid_request_error', code: null, message: 'invalid request' },
  401: {
    type: 'invalid_request_error',
    code: 'invalid_api_key',
    message: 'Incorrect API key provided.',
  },
  403: {
    type: 'request_forbidden',
    code: 'unsupported_country_region_territory',
    message: 'Country, region, or territory not supported',
  },
  404: {
    type: 'invalid_request_error',
    code: 'model_not_found',
    message: 'The model does not exist or you do not have access to it.',
  },
  413: { type: 'invalid_request_error', code: null, message: 'Request too large.' },
  429: {
    type: 'requests',
    code: 'rate_limit_exceeded',
    message: 'Rate limit reached for requests. Please try again later.',
  },
  500: {
    type: 'server_error',
    code: null,
    message: 'The server had an error while processing your request. Sorry about that!',
  },
  503: {
    type: 'server_error',
    code: null,
    message: 'The engine is currently overloaded, please try again later.',
  },
  // Not OpenAI's: what an Anthropic-style upstream behind an OpenAI-compatible URL sends.
  529: { type: 'server_error', code: null, message: 'overloaded' },
};

/**
 * A scripted error as the Responses API answers it: OpenAI's error shape, with `x-request-id`
 * when an id is given. Every status is answered as scripted: OpenAI's own overload is 503
 * ("Slow Down"); a 529 is what an Anthropic-style upstream behind an OpenAI-compatible URL sends.
 */
export function responsesError(
  answer: ScriptErrorAnswer['error'],
  id?: string,
): {
  status: number;
  headers: Record<string, string>;
  body: string;
} {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (id !== undefined) headers['x-request-id'] = id;
  if (answer.retry_after !== undefined) headers['retry-after'] = String(answer.retry_after);
  const e = OPENAI_ERRORS[answer.status] ?? OPENAI_ERRORS[500]!;
  return {
    status: answer.status,
    headers,
    body: JSON.stringify({
      error: { message: answer.message ?? e.message, type: e.type, param: null, code: e.code },
    }),
  };
}
