import { count, isObj, minus, resultText, str, WireReader, type Obj } from './common.js';
import { INPUT_CAP, type CallTokens, type RequestFacts, type WireApi } from './types.js';

/**
 * OpenAI Chat Completions (`POST /v1/chat/completions`, what Qwen Code and OpenCode speak),
 * read as its documentation says: a stream is `data:` chunks of `chat.completion.chunk`
 * (no `event:` lines) ended by `data: [DONE]`; text comes as `delta.content` pieces, each tool
 * call opens with a delta naming its index, id and function name and goes on with argument
 * pieces under the same index; a choice's `finish_reason` ends the answer, and with
 * `stream_options.include_usage` one last chunk with no choices carries the usage. A
 * `data: {"error": …}` chunk ends it early (`cut`). Its `prompt_tokens` count the cached
 * ones too: evalrig's `input` is `prompt_tokens - prompt_tokens_details.cached_tokens`.
 */
export const CHAT_API: WireApi = {
  name: 'chat',
  paths: ['/v1/chat/completions'],
  auth: 'bearer',
  readRequest: readChatRequest,
  responseReader: ({ status, contentType }) => new ChatReader(status, contentType),
};

class ChatReader extends WireReader {
  private finished = false;
  private streamError: string | null = null;
  private textOpen = false;
  /** Tool calls by their index in the deltas, whole once the choice finishes. */
  private readonly tools = new Map<number, { id: unknown; name: unknown; input: string }>();

  protected event(_name: string, e: Obj): void {
    if (isObj(e.error)) {
      this.streamError = str(e.error.type) ?? str(e.error.code) ?? 'error';
      return;
    }
    this.facts.id = str(e.id, 200) ?? this.facts.id;
    this.facts.model = str(e.model, 200) ?? this.facts.model;
    takeUsage(e.usage, this.facts.tokens);
    const choice = Array.isArray(e.choices) && isObj(e.choices[0]) ? e.choices[0] : null;
    if (!choice) return;
    const delta = isObj(choice.delta) ? choice.delta : {};
    if (typeof delta.content === 'string') {
      if (this.textOpen) this.appendText(delta.content);
      else if (delta.content !== '') {
        this.text(delta.content);
        this.textOpen = true;
      }
    }
    for (const t of Array.isArray(delta.tool_calls) ? delta.tool_calls : []) this.toolDelta(t);
    if (typeof choice.finish_reason === 'string') this.finish_(choice.finish_reason);
  }

  private toolDelta(t: unknown): void {
    if (!isObj(t) || !Number.isSafeInteger(t.index)) return;
    const index = t.index as number;
    const fn = isObj(t.function) ? t.function : {};
    const known = this.tools.get(index);
    const part = typeof fn.arguments === 'string' ? fn.arguments : '';
    if (known) {
      if (known.input.length < INPUT_CAP) known.input += part;
      return;
    }
    if (this.tools.size < 1000) this.tools.set(index, { id: t.id, name: fn.name, input: part });
  }

  /** The choice finished: its tool calls are whole. */
  private finish_(reason: string): void {
    this.finished = true;
    this.facts.stopReason = reason.slice(0, 100);
    for (const [, t] of [...this.tools].sort((a, b) => a[0] - b[0]))
      this.toolCall(t.id, t.name, t.input);
    this.tools.clear();
  }

  protected json(body: Obj): void {
    if (body.object !== 'chat.completion') return;
    this.facts.id = str(body.id, 200);
    this.facts.model = str(body.model, 200);
    takeUsage(body.usage, this.facts.tokens);
    const choice = Array.isArray(body.choices) && isObj(body.choices[0]) ? body.choices[0] : {};
    const message = isObj(choice.message) ? choice.message : {};
    if (typeof message.content === 'string' && message.content !== '') this.text(message.content);
    for (const t of Array.isArray(message.tool_calls) ? message.tool_calls : []) {
      const fn = isObj(t) && isObj(t.function) ? t.function : undefined;
      if (isObj(t)) this.toolCall(t.id, fn?.name, fn?.arguments);
    }
    this.finished = true;
    this.facts.stopReason = str(choice.finish_reason);
  }

  protected finish(cut: string | undefined): void {
    this.settle(cut, this.streamError, this.finished, {
      noAnswer: 'no completion',
      noEnd: 'no finish_reason',
    });
  }
}

/** Chat Completions' usage in evalrig's convention (input without the cached part). */
function takeUsage(usage: unknown, into: CallTokens): void {
  if (!isObj(usage)) return;
  const prompt = count(usage.prompt_tokens);
  const details = isObj(usage.prompt_tokens_details) ? usage.prompt_tokens_details : {};
  const cached = count(details.cached_tokens) ?? (prompt === null ? null : 0);
  into.input = minus(prompt, cached);
  into.cacheRead = cached;
  into.cacheWrite = prompt === null ? null : 0;
  into.output = count(usage.completion_tokens);
}

/**
 * The request's model and tools, and the tool results after the model's last message
 * (`role: "tool"` messages: this API marks none as an error).
 */
function readChatRequest(body: unknown): RequestFacts {
  const b = isObj(body) ? body : {};
  const messages = Array.isArray(b.messages) ? b.messages : [];
  const results: RequestFacts['toolResults'][number][] = [];
  for (let i = messages.length - 1; i >= 0 && results.length < 1000; i--) {
    const m: unknown = messages[i];
    if (!isObj(m) || m.role !== 'tool') break;
    const id = str(m.tool_call_id, 200);
    if (id !== null) results.unshift({ id, isError: null, text: resultText(m.content) });
  }
  return {
    model: str(b.model, 200),
    stream: b.stream === true,
    hasTools: Array.isArray(b.tools) && b.tools.length > 0,
    toolResults: results,
  };
}
