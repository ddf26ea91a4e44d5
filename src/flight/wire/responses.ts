import { count, isObj, minus, resultText, str, WireReader, type Obj } from './common.js';
import type { CallTokens, RequestFacts, WireApi } from './types.js';

/** Output items that are tool calls the agent runs (hosted tools run on the API's side). */
const TOOL_ITEMS = new Set(['function_call', 'custom_tool_call', 'local_shell_call']);

/**
 * The OpenAI Responses API (`POST /v1/responses`), read as its documentation says: a stream
 * ends with `response.completed`, `response.incomplete` (its `incomplete_details.reason`) or
 * `response.failed` (its `error.code`), each carrying the response with its usage (null when
 * the API billed none); an `error` event ends it early (`cut`). Items are whole at
 * `response.output_item.done`. Its `input_tokens` count the cached ones too: evalrig's `input`
 * is `input_tokens - input_tokens_details.cached_tokens`, `cacheRead` the cached ones.
 */
export const RESPONSES_API: WireApi = {
  name: 'responses',
  paths: ['/v1/responses'],
  auth: 'bearer',
  readRequest: readResponsesRequest,
  responseReader: ({ status, contentType }) => new ResponsesReader(status, contentType),
};

class ResponsesReader extends WireReader {
  private ended = false;
  private streamError: string | null = null;

  protected event(name: string, e: Obj): void {
    const type = typeof e.type === 'string' ? e.type : name;
    switch (type) {
      case 'response.created':
        if (isObj(e.response)) this.identify(e.response);
        break;
      case 'response.output_item.done':
        if (isObj(e.item)) this.item(e.item);
        break;
      case 'response.completed':
      case 'response.incomplete':
      case 'response.failed':
        if (isObj(e.response)) this.terminal(type, e.response);
        break;
      case 'error':
        this.streamError = str(e.code) ?? str(e.type) ?? 'error';
        break;
    }
  }

  private identify(r: Obj): void {
    this.facts.id = str(r.id, 200) ?? this.facts.id;
    this.facts.model = str(r.model, 200) ?? this.facts.model;
  }

  private item(item: Obj): void {
    if (item.type === 'message' && Array.isArray(item.content)) {
      for (const part of item.content) {
        if (isObj(part) && part.type === 'output_text') this.text(part.text);
      }
    } else if (typeof item.type === 'string' && TOOL_ITEMS.has(item.type)) {
      const name = item.type === 'local_shell_call' ? 'local_shell' : item.name;
      const input = item.arguments ?? item.input ?? item.action;
      this.toolCall(item.call_id ?? item.id, name, input);
    }
  }

  /** The terminal event: its status, reason and usage as the response holds them. */
  private terminal(type: string, r: Obj): void {
    this.ended = true;
    this.identify(r);
    takeUsage(r.usage, this.facts.tokens);
    if (type === 'response.incomplete') {
      this.facts.outcome = 'incomplete';
      const d = isObj(r.incomplete_details) ? r.incomplete_details : undefined;
      this.facts.reason = str(d?.reason) ?? 'unknown';
    } else if (type === 'response.failed') {
      this.facts.outcome = 'failed';
      const e = isObj(r.error) ? r.error : undefined;
      this.facts.reason = str(e?.code) ?? str(e?.type) ?? 'unknown';
    }
    this.facts.stopReason = str(r.status);
  }

  protected json(r: Obj): void {
    if (r.object !== 'response') return;
    for (const item of Array.isArray(r.output) ? r.output : []) if (isObj(item)) this.item(item);
    const status = r.status;
    this.terminal(
      status === 'incomplete'
        ? 'response.incomplete'
        : status === 'failed'
          ? 'response.failed'
          : 'response.completed',
      r,
    );
  }

  protected finish(cut: string | undefined): void {
    if (this.facts.outcome === 'error' || this.ended) return;
    this.facts.outcome = 'cut';
    this.facts.reason =
      this.streamError ?? cut ?? (this.facts.id === null ? 'no response' : 'no terminal event');
  }
}

/** The Responses API's usage in evalrig's convention (input without the cached part). */
function takeUsage(usage: unknown, into: CallTokens): void {
  if (!isObj(usage)) return;
  const input = count(usage.input_tokens);
  const details = isObj(usage.input_tokens_details) ? usage.input_tokens_details : {};
  const cached = count(details.cached_tokens) ?? (input === null ? null : 0);
  into.input = minus(input, cached);
  into.cacheRead = cached;
  into.cacheWrite = input === null ? null : 0;
  into.output = count(usage.output_tokens);
}

function readResponsesRequest(body: unknown): RequestFacts {
  const b = isObj(body) ? body : {};
  const input = Array.isArray(b.input) ? b.input : [];
  const results: RequestFacts['toolResults'][number][] = [];
  // The newest outputs follow the last call the model made; older ones are history.
  let i = input.length;
  while (i > 0 && isObj(input[i - 1]) && (input[i - 1] as Obj).type !== 'function_call') i--;
  for (const item of input.slice(i, i + 1000)) {
    if (!isObj(item)) continue;
    if (item.type !== 'function_call_output' && item.type !== 'custom_tool_call_output') continue;
    const id = str(item.call_id, 200);
    if (id !== null) results.push({ id, isError: null, text: resultText(item.output) });
  }
  return {
    model: str(b.model, 200),
    stream: b.stream === true,
    hasTools: Array.isArray(b.tools) && b.tools.length > 0,
    toolResults: results,
  };
}
