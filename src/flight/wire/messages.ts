import { count, isObj, resultText, str, WireReader, type Obj } from './common.js';
import { INPUT_CAP, type CallTokens, type RequestFacts, type WireApi } from './types.js';

/**
 * The Anthropic Messages API (`POST /v1/messages`), read as its documentation says: a stream
 * is `message_start` (the message's id, model and usage: input, cache reads, cache writes, a
 * first output count), content blocks (`content_block_start`, deltas, `content_block_stop`),
 * `message_delta` (the stop reason and usage, cumulative), `message_stop`; `ping`s anywhere;
 * and possibly an `error` event that ends it early (e.g. `overloaded_error`), which makes the
 * call `cut`. Its `input_tokens` already exclude cache reads and writes: evalrig's convention.
 */
export const MESSAGES_API: WireApi = {
  name: 'messages',
  paths: ['/v1/messages'],
  auth: 'x-api-key',
  readRequest: readMessagesRequest,
  responseReader: ({ status, contentType }) => new MessagesReader(status, contentType),
};

class MessagesReader extends WireReader {
  private stopped = false;
  private streamError: string | null = null;
  private readonly tools = new Map<number, { id: unknown; name: unknown; input: string }>();

  protected event(name: string, e: Obj): void {
    switch (e.type ?? name) {
      case 'message_start':
        if (isObj(e.message)) this.start(e.message);
        break;
      case 'content_block_start':
        this.blockStart(e);
        break;
      case 'content_block_delta':
        if (isObj(e.delta) && e.delta.type === 'text_delta') this.appendText(e.delta.text);
        else if (isObj(e.delta) && e.delta.type === 'input_json_delta') this.inputDelta(e);
        break;
      case 'content_block_stop': {
        const tool = this.tools.get(Number(e.index));
        if (tool) this.toolCall(tool.id, tool.name, tool.input);
        this.tools.delete(Number(e.index));
        break;
      }
      case 'message_delta':
        if (isObj(e.delta))
          this.facts.stopReason = str(e.delta.stop_reason) ?? this.facts.stopReason;
        takeUsage(e.usage, this.facts.tokens);
        this.takeServerTools(e.usage);
        break;
      case 'message_stop':
        this.stopped = true;
        break;
      case 'error':
        this.streamError = (isObj(e.error) ? str(e.error.type) : null) ?? 'error';
        break;
    }
  }

  private start(m: Obj): void {
    this.facts.id = str(m.id, 200);
    this.facts.model = str(m.model, 200);
    takeUsage(m.usage, this.facts.tokens);
    this.takeServerTools(m.usage);
  }

  /** `usage.server_tool_use`'s counts (cumulative, like the tokens): billed per request. */
  private takeServerTools(usage: unknown): void {
    const used = isObj(usage) && isObj(usage.server_tool_use) ? usage.server_tool_use : null;
    if (used === null) return;
    const webSearch = count(used.web_search_requests) ?? this.facts.serverTools?.webSearch ?? 0;
    const webFetch = count(used.web_fetch_requests) ?? this.facts.serverTools?.webFetch ?? 0;
    if (webSearch > 0 || webFetch > 0) this.facts.serverTools = { webSearch, webFetch };
  }

  /** A streamed part of a tool call's input, kept up to the cap. */
  private inputDelta(e: Obj): void {
    const tool = this.tools.get(Number(e.index));
    const part = isObj(e.delta) ? e.delta.partial_json : undefined;
    if (tool && typeof part === 'string' && tool.input.length < INPUT_CAP) tool.input += part;
  }

  private blockStart(e: Obj): void {
    const block = isObj(e.content_block) ? e.content_block : undefined;
    if (block?.type === 'text') this.text(block.text ?? '');
    else if (block?.type === 'tool_use' && this.tools.size < 1000) {
      const given = isObj(block.input) && Object.keys(block.input).length > 0;
      const input = given ? JSON.stringify(block.input) : '';
      this.tools.set(Number(e.index), { id: block.id, name: block.name, input });
    }
  }

  protected json(m: Obj): void {
    if (m.type !== 'message') return;
    this.start(m);
    this.facts.stopReason = str(m.stop_reason);
    for (const block of Array.isArray(m.content) ? m.content : []) {
      if (!isObj(block)) continue;
      if (block.type === 'text') this.text(block.text);
      else if (block.type === 'tool_use') this.toolCall(block.id, block.name, block.input);
    }
    this.stopped = true;
  }

  protected finish(cut: string | undefined): void {
    this.settle(cut, this.streamError, this.stopped, {
      noAnswer: 'no message',
      noEnd: 'no message_stop',
    });
  }
}

/** Usage fields present in `usage` (message_start's, or message_delta's cumulative ones). */
function takeUsage(usage: unknown, into: CallTokens): void {
  if (!isObj(usage)) return;
  const set = (key: keyof CallTokens, v: unknown): void => {
    const n = count(v);
    if (n !== null) into[key] = n;
  };
  set('input', usage.input_tokens);
  set('output', usage.output_tokens);
  set('cacheRead', usage.cache_read_input_tokens);
  set('cacheWrite', usage.cache_creation_input_tokens);
}

function readMessagesRequest(body: unknown): RequestFacts {
  const b = isObj(body) ? body : {};
  const messages = Array.isArray(b.messages) ? b.messages : [];
  const last: unknown = messages[messages.length - 1];
  const results: RequestFacts['toolResults'][number][] = [];
  const content = isObj(last) && Array.isArray(last.content) ? last.content : [];
  for (const block of content.slice(0, 1000)) {
    if (!isObj(block) || block.type !== 'tool_result') continue;
    const id = str(block.tool_use_id, 200);
    if (id !== null)
      results.push({ id, isError: block.is_error === true, text: resultText(block.content) });
  }
  return {
    model: str(b.model, 200),
    stream: b.stream === true,
    hasTools: Array.isArray(b.tools) && b.tools.length > 0,
    toolResults: results,
  };
}
