import type { ScriptErrorAnswer, ScriptMessage } from './script.js';
import type { SeenRequest } from './request.js';

/** One part of the model's content, as the Gemini API returns it. */
type GeminiPart =
  { text: string } | { functionCall: { name: string; args: Record<string, unknown>; id?: string } };

/**
 * The Gemini API's rendering of a scripted message (`models/{model}:generateContent`): one
 * candidate whose content (role `model`) holds a text part per text block and a functionCall
 * part per tool_use block (its `id` only when the script names one: the public API sends none,
 * and clients make their own). Gemini says STOP after a function call too; max_tokens is
 * MAX_TOKENS. Usage as `usageMetadata` counts it: the prompt holds the cached tokens, which
 * `cachedContentTokenCount` names again; `cache_creation_input_tokens` is not played.
 */
export function geminiResponse(scripted: ScriptMessage, model: string, n: number) {
  // Thinking and server-tool blocks are played by the Messages and Responses APIs alone.
  const parts: GeminiPart[] = scripted.content.flatMap((b): GeminiPart[] => {
    if ('text' in b) return [{ text: b.text }];
    if (!('tool_use' in b)) return [];
    const call = b.tool_use;
    return [
      {
        functionCall: {
          name: call.name,
          args: call.input,
          ...(call.id === undefined ? {} : { id: call.id }),
        },
      },
    ];
  });
  const u = scripted.usage ?? {};
  const cached = u.cache_read_input_tokens ?? 0;
  const prompt = (u.input_tokens ?? 0) + cached;
  const output = u.output_tokens ?? 0;
  return {
    candidates: [
      {
        content: { parts, role: 'model' as const },
        finishReason: scripted.stop_reason === 'max_tokens' ? 'MAX_TOKENS' : 'STOP',
        index: 0,
      },
    ],
    usageMetadata: {
      promptTokenCount: prompt,
      candidatesTokenCount: output,
      totalTokenCount: prompt + output,
      ...(cached > 0 ? { cachedContentTokenCount: cached } : {}),
      promptTokensDetails: [{ modality: 'TEXT', tokenCount: prompt }],
    },
    modelVersion: model,
    responseId: `standin${String(n).padStart(6, '0')}`,
  };
}

export type GeminiResponse = ReturnType<typeof geminiResponse>;

/**
 * The response as `streamGenerateContent?alt=sse` sends it: `data: {GenerateContentResponse}`
 * frames ended by a blank line (CRLF, as Google's servers write them). Text comes in pieces, a
 * function call whole in its own chunk (Gemini never splits one); every chunk names the model
 * and the response id, and the last one alone has the finish reason and the full usage (the
 * earlier ones the prompt's count only, as the API does).
 */
export function geminiFrames(response: GeminiResponse): string[] {
  const candidate = response.candidates[0]!;
  const chunks: GeminiPart[][] = [];
  for (const part of candidate.content.parts) {
    if ('text' in part) for (const piece of pieces(part.text)) chunks.push([{ text: piece }]);
    else chunks.push([part]);
  }
  if (chunks.length === 0) chunks.push([{ text: '' }]);
  const { promptTokenCount } = response.usageMetadata;
  return chunks.map((parts, i) => {
    const last = i === chunks.length - 1;
    const chunk = {
      candidates: [
        {
          content: { parts, role: 'model' },
          ...(last ? { finishReason: candidate.finishReason } : {}),
          index: 0,
        },
      ],
      usageMetadata: last
        ? response.usageMetadata
        : { promptTokenCount, totalTokenCount: promptTokenCount },
      modelVersion: response.modelVersion,
      responseId: response.responseId,
    };
    return `data: ${JSON.stringify(chunk)}\r\n\r\n`;
  });
}

function pieces(text: string, size = 64): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/**
 * The google.rpc status name and message per HTTP status, as the Gemini API answers them (its
 * troubleshooting guide's table, and the messages Google's front end gives each status).
 */
const ERRORS: Record<number, { status: string; message: string }> = {
  400: { status: 'INVALID_ARGUMENT', message: 'Request contains an invalid argument.' },
  401: {
    status: 'UNAUTHENTICATED',
    message:
      'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
  },
  403: { status: 'PERMISSION_DENIED', message: 'The caller does not have permission' },
  404: { status: 'NOT_FOUND', message: 'Requested entity was not found.' },
  // The API has no 413: a request over its size limit is answered 400 with this message.
  413: {
    status: 'INVALID_ARGUMENT',
    message: 'Request payload size exceeds the limit: 20971520 bytes.',
  },
  429: {
    status: 'RESOURCE_EXHAUSTED',
    message: 'Resource has been exhausted (e.g. check quota).',
  },
  500: { status: 'INTERNAL', message: 'An internal error has occurred. Please retry.' },
  503: { status: 'UNAVAILABLE', message: 'The model is overloaded. Please try again later.' },
  529: { status: 'UNAVAILABLE', message: 'The model is overloaded. Please try again later.' },
};

/** The HTTP status the API answers for a scripted one it has no use of (529, 413). */
const ANSWERED_AS: Readonly<Record<number, number>> = { 529: 503, 413: 400 };

/**
 * A scripted error as the Gemini API answers it: `{"error": {code, message, status}}` with the
 * google.rpc status name (401 UNAUTHENTICATED, 403 PERMISSION_DENIED, 404 NOT_FOUND, 503
 * UNAVAILABLE…); a `retry_after` travels as a RetryInfo detail (`"retryDelay": "Ns"`),
 * which is where Google's clients read it (the API sends no Retry-After header). 529 is
 * answered 503 UNAVAILABLE, the API's "model is overloaded", and 413 as the 400 the API gives
 * a request over its size limit.
 */
export function geminiError(answer: ScriptErrorAnswer['error']): {
  status: number;
  headers: Record<string, string>;
  body: string;
} {
  const e = ERRORS[answer.status] ?? ERRORS[500]!;
  const code = ANSWERED_AS[answer.status] ?? answer.status;
  const details =
    answer.retry_after === undefined
      ? {}
      : {
          details: [
            {
              '@type': 'type.googleapis.com/google.rpc.RetryInfo',
              retryDelay: `${answer.retry_after}s`,
            },
          ],
        };
  return {
    status: code,
    headers: { 'content-type': 'application/json; charset=UTF-8' },
    body: JSON.stringify({
      error: { code, message: answer.message ?? e.message, status: e.status, ...details },
    }),
  };
}

/**
 * What the stand-in notes of a Gemini request: the model named in its path, whether it streams
 * (`:streamGenerateContent`), how many contents it sends, and the functionResponse parts of
 * the last one (what the agent's tools returned; an `error` key in the response marks a failure,
 * as Gemini CLI reports one).
 */
export function geminiRequest(value: object, url: URL): SeenRequest {
  const match = /^\/[^/]+\/models\/([^/:]+):(\w+)$/.exec(url.pathname);
  const v = value as { contents?: unknown };
  const contents = Array.isArray(v.contents) ? (v.contents as unknown[]) : [];
  const last = contents[contents.length - 1] as { parts?: unknown } | undefined;
  const parts = Array.isArray(last?.parts) ? (last.parts as unknown[]) : [];
  const toolResults: SeenRequest['toolResults'][number][] = [];
  for (const part of parts.slice(0, 100)) {
    const r = (part as { functionResponse?: { id?: unknown; name?: unknown; response?: unknown } })
      ?.functionResponse;
    if (typeof r !== 'object' || r === null) continue;
    const response = (r.response ?? {}) as { output?: unknown; error?: unknown };
    const out = response.error ?? response.output ?? response;
    toolResults.push({
      toolUseId: String(r.id ?? r.name),
      isError: response.error !== undefined,
      text: (typeof out === 'string' ? out : JSON.stringify(out)).slice(0, 4000),
    });
  }
  return {
    model: match ? decoded(match[1]!) : null,
    stream: match?.[2] === 'streamGenerateContent',
    messages: contents.length,
    toolResults,
  };
}

/** A path segment, percent-decoded where it decodes (the client's bytes, however malformed). */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The stream of a response the script cuts (`stream_error`): its first chunk when it has
 * more than one, then a `data: {"error": {code, message, status}}` event, as Google's servers
 * end a stream that failed after its start (@google/genai raises it as an ApiError).
 * `overloaded_error` is 503 UNAVAILABLE, anything else 500 INTERNAL.
 */
export function geminiFramesCut(
  response: GeminiResponse,
  error: { readonly type: string; readonly message?: string },
): string[] {
  const frames = geminiFrames(response);
  const head = frames.length > 1 ? frames.slice(0, 1) : [];
  const e = JSON.parse(geminiCutWhole(error).body) as unknown;
  head.push(`data: ${JSON.stringify(e)}\r\n\r\n`);
  return head;
}

/** The whole answer of a cut response not streamed: the error itself. */
export function geminiCutWhole(error: { readonly type: string; readonly message?: string }) {
  const status = error.type === 'overloaded_error' ? 529 : 500;
  return geminiError({ status, ...(error.message ? { message: error.message } : {}) });
}
