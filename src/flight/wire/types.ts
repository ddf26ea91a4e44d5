/**
 * Token counts of one call in evalrig's one convention, whatever the API: `input` is the
 * input the model read fresh (cached reads and cache writes excluded), `cacheRead` what it
 * read from the provider's prompt cache, `cacheWrite` what it wrote there, `output` all it
 * generated (reasoning included). null: the upstream reported nothing for it.
 */
export interface CallTokens {
  input: number | null;
  output: number | null;
  cacheRead: number | null;
  cacheWrite: number | null;
}

/** Requests of the tools the API runs itself, billed per request (web search) apart from tokens. */
export interface ServerToolUse {
  webSearch: number;
  webFetch: number;
}

export const NO_TOKENS: CallTokens = {
  input: null,
  output: null,
  cacheRead: null,
  cacheWrite: null,
};

/**
 * How a call ended, as the API documents it:
 * - `complete`: a whole answer (a `max_tokens` stop of the Messages API is whole too);
 * - `cut`: the answer began (200) and stopped early: a mid-stream `error` event (its type is
 *   the reason), the connection lost or cut by the gateway, no terminal event;
 * - `incomplete`: the Responses API's `response.incomplete` (its `incomplete_details.reason`);
 * - `failed`: the Responses API's `response.failed` (its error code);
 * - `error`: the upstream answered an HTTP error (its error type);
 * - `refused`: the gateway refused the request itself (a path, a size, a limit).
 */
export type CallOutcome = 'complete' | 'cut' | 'incomplete' | 'failed' | 'error' | 'refused';

/** A tool the model asked the agent to run. */
export interface ToolCallAsked {
  readonly id: string | null;
  readonly name: string;
  /** Its input as the model wrote it (JSON text), capped at {@link INPUT_CAP}; kept in memory only. */
  readonly input?: string;
}

/** What a wire reader makes of one response. Every string is the upstream's, capped. */
export interface ResponseFacts {
  outcome: CallOutcome;
  reason: string | null;
  /** The message's (Messages API) or response's (Responses API) id. */
  id: string | null;
  model: string | null;
  stopReason: string | null;
  tokens: CallTokens;
  /** The server tools' requests the usage counts (Messages' server_tool_use), when any. */
  serverTools?: ServerToolUse;
  /** The answer's text blocks in order (each capped at {@link TEXT_CAP}). */
  texts: string[];
  /** Tool calls the answer asked for, whole (a call cut mid-stream is not one). */
  toolCalls: ToolCallAsked[];
}

/** What the witness reads of a request (the agent's): untrusted, capped. */
export interface RequestFacts {
  readonly model: string | null;
  readonly stream: boolean;
  /** The request declares tools: the agent's own loop, not a side request (a title, a summary). */
  readonly hasTools: boolean;
  /** Results of tool calls sent back in this request, and whether each is marked an error (null: the API has no such mark). */
  readonly toolResults: readonly {
    readonly id: string;
    readonly isError: boolean | null;
    /** The tool's name, where the API gives calls no id to match (Gemini). */
    readonly name?: string;
    /** The start of what the tool returned (capped at {@link RESULT_TEXT_CAP}): how a refusal reads. */
    readonly text?: string;
  }[];
}

/** Reads one response as it streams past: bounded memory whatever its size. */
export interface ResponseReader {
  push(chunk: Buffer): void;
  /** The facts once the body ended; `cut` says why it ended early when the gateway knows. */
  end(cut?: string): ResponseFacts;
}

/**
 * One model API as the gateway forwards it: its paths, how its key is sent, and how the
 * witness reads its requests and responses. More APIs plug in here (one object each).
 */
export interface WireApi {
  readonly name: WireApiName;
  /** The paths it serves (all POST); `{model}` stands for one path segment (Gemini's). */
  readonly paths: readonly string[];
  /** The header that carries its key upstream: the gateway adds it on the host side. */
  readonly auth: WireAuth;
  /** The query parameters passed upstream (Gemini's `alt=sse`); any other is dropped. */
  readonly query?: readonly string[];
  /** `path` is the one asked for (Gemini names the model there, not in the body). */
  readRequest(body: unknown, path?: string): RequestFacts;
  responseReader(answer: { readonly status: number; readonly contentType: string }): ResponseReader;
}

export type WireApiName = 'messages' | 'responses' | 'chat' | 'gemini';

/** How an API's key travels: `x-api-key` (Anthropic), `Authorization: Bearer` (OpenAI), `x-goog-api-key` (Gemini). */
export type WireAuth = 'x-api-key' | 'bearer' | 'x-goog-api-key';

/** Each text block kept up to this many characters (a final message is capped the same). */
export const TEXT_CAP = 64 * 1024;
/** Tool calls kept per response; more are counted in no name. */
export const MAX_TOOL_CALLS = 200;
export const NAME_CAP = 100;
/** Characters kept of a tool result's text (an agent's refusal says so at its start). */
export const RESULT_TEXT_CAP = 512;
/** A tool call's input kept, in characters: enough to see which file or skill it names. */
export const INPUT_CAP = 4 * 1024;
/** A JSON (not streamed) answer is read up to this; a larger one keeps no facts but its status. */
export const MAX_JSON_BYTES = 8 * 1024 * 1024;
