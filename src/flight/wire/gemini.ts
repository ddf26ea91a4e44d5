import { count, isObj, minus, resultText, str, WireReader, type Obj } from './common.js';
import type { CallTokens, RequestFacts, WireApi } from './types.js';

/** The model a path names (`/v1beta/models/{model}:…`) and whether it streams, or nulls. */
const PATH = /^\/[^/]+\/models\/([A-Za-z0-9][A-Za-z0-9._-]{0,127}):(\w+)$/u;

/**
 * The Gemini API (`POST /v1beta/models/{model}:streamGenerateContent?alt=sse` and
 * `:generateContent`, what Gemini CLI speaks), read as its documentation says: each `data:`
 * event is a whole GenerateContentResponse; the first candidate's parts are text (a block's
 * text may span chunks) or a `functionCall {name, args, id?}` (never split); the chunk with a
 * `finishReason` ends the answer, and `usageMetadata` is cumulative (the last one counts). A
 * `data: {"error": …}` event ends it early (`cut`). `promptTokenCount` holds the cached
 * tokens: evalrig's `input` is it minus `cachedContentTokenCount`; `output` is the candidates'
 * tokens plus the thoughts'. The public API gives function calls no id: their id is null.
 */
export const GEMINI_API: WireApi = {
  name: 'gemini',
  paths: ['/v1beta/models/{model}:streamGenerateContent', '/v1beta/models/{model}:generateContent'],
  auth: 'x-goog-api-key',
  query: ['alt'],
  readRequest: readGeminiRequest,
  responseReader: ({ status, contentType }) => new GeminiReader(status, contentType),
};

class GeminiReader extends WireReader {
  private finished = false;
  private streamError: string | null = null;
  private textOpen = false;

  protected event(_name: string, e: Obj): void {
    if (isObj(e.error)) {
      this.streamError = str(e.error.status) ?? 'error';
      return;
    }
    this.chunk(e);
  }

  private chunk(e: Obj): void {
    this.facts.id = str(e.responseId, 200) ?? this.facts.id;
    this.facts.model = str(e.modelVersion, 200) ?? this.facts.model;
    takeUsage(e.usageMetadata, this.facts.tokens);
    const c = Array.isArray(e.candidates) && isObj(e.candidates[0]) ? e.candidates[0] : null;
    if (!c) return;
    const parts = isObj(c.content) && Array.isArray(c.content.parts) ? c.content.parts : [];
    for (const part of parts.slice(0, 1000)) {
      if (!isObj(part) || part.thought === true) continue;
      if (typeof part.text === 'string') {
        if (this.textOpen) this.appendText(part.text);
        else if (part.text !== '') {
          this.text(part.text);
          this.textOpen = true;
        }
      } else if (isObj(part.functionCall)) {
        const call = part.functionCall;
        this.toolCall(call.id ?? null, call.name, call.args);
        this.textOpen = false;
      }
    }
    if (typeof c.finishReason === 'string') {
      this.finished = true;
      this.facts.stopReason = c.finishReason.slice(0, 100);
    }
  }

  protected json(body: Obj): void {
    this.chunk(body);
    this.finished = true;
  }

  /** Google's error body names its status (INVALID_ARGUMENT, RESOURCE_EXHAUSTED…). */
  protected override error(body: Obj | null): void {
    this.facts.outcome = 'error';
    const e = isObj(body?.error) ? body.error : undefined;
    this.facts.reason = str(e?.status) ?? `http_${this.status}`;
  }

  protected finish(cut: string | undefined): void {
    this.settle(cut, this.streamError, this.finished, {
      noAnswer: 'no response',
      noEnd: 'no finishReason',
    });
  }
}

/** usageMetadata in evalrig's convention (input without the cached part, thoughts as output). */
function takeUsage(usage: unknown, into: CallTokens): void {
  if (!isObj(usage)) return;
  const prompt = count(usage.promptTokenCount);
  if (prompt === null) return;
  const cached = count(usage.cachedContentTokenCount) ?? 0;
  into.input = minus(prompt, cached);
  into.cacheRead = cached;
  into.cacheWrite = 0;
  const out = count(usage.candidatesTokenCount);
  const thoughts = count(usage.thoughtsTokenCount) ?? 0;
  into.output = out === null && thoughts === 0 ? null : (out ?? 0) + thoughts;
}

/**
 * The model and streaming from the path (the body names neither), the request's tools, and
 * the functionResponse parts of its last content. A result's id is the
 * client's own (the API gives calls none), so no result is matched to a call: `isError` null.
 */
function readGeminiRequest(body: unknown, path = ''): RequestFacts {
  const m = PATH.exec(path);
  const b = isObj(body) ? body : {};
  const contents = Array.isArray(b.contents) ? b.contents : [];
  const last: unknown = contents[contents.length - 1];
  const parts = isObj(last) && Array.isArray(last.parts) ? last.parts : [];
  const results: RequestFacts['toolResults'][number][] = [];
  for (const part of parts.slice(0, 1000)) {
    if (!isObj(part) || !isObj(part.functionResponse)) continue;
    const id = str(part.functionResponse.id, 200) ?? str(part.functionResponse.name, 200);
    // Gemini CLI sends `{ output }` (or `{ error }`): the text is that string.
    const response = part.functionResponse.response;
    const said = isObj(response) ? (response.output ?? response.error ?? response) : response;
    const text = resultText(said);
    const name = str(part.functionResponse.name) ?? '?';
    if (id !== null) results.push({ id, isError: null, name, text });
  }
  const tools = Array.isArray(b.tools) ? b.tools : [];
  return {
    model: m ? m[1]! : null,
    stream: m?.[2] === 'streamGenerateContent',
    hasTools: tools.some((t) => isObj(t) && Array.isArray(t.functionDeclarations)),
    toolResults: results,
  };
}
