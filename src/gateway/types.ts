import type { CallTokens } from './usage.js';

/** Where the gateway sends what it forwards: a real API (with its key) or a stand-in. */
export interface GatewayUpstream {
  /** Base URL, e.g. `http://127.0.0.1:4100` (a stand-in) or the API's https origin. */
  readonly url: string;
  /** The real key, added on the host side; the container only ever holds a placeholder. */
  readonly apiKey?: string;
  /** How the key is sent: `x-api-key` (Anthropic, default) or `bearer` (OpenAI). */
  readonly auth?: 'x-api-key' | 'bearer';
}

export interface ModelGatewayOptions {
  /** Absolute path of the socket, in a folder the caller made (mode 0711, mounted read-only). */
  readonly socketPath: string;
  readonly upstream: GatewayUpstream;
  /** The run's `model-calls.jsonl`; one line per request, appended. */
  readonly logPath: string;
  /** The only paths forwarded, all `POST` (default `['/v1/messages']`). */
  readonly paths?: readonly string[];
  /** A request body larger than this is answered 413 (default 32 MiB). */
  readonly maxRequestBytes?: number;
  /** A response larger than this is cut (default 64 MiB). */
  readonly maxResponseBytes?: number;
  /** The longest wait for the upstream's next byte (headers included) (default 300 s). */
  readonly idleTimeoutMs?: number;
  /** The longest a client may take to send its request (default 60 s). */
  readonly requestTimeoutMs?: number;
  /** Open client connections at once (default 16). */
  readonly maxConnections?: number;
}

/** One line of model-calls.jsonl. */
export interface ModelCall {
  /** ISO time the request arrived. */
  readonly time: string;
  readonly method: string;
  /** The path asked for (capped at 200 characters; untrusted). */
  readonly path: string;
  /** The model the request named, or null. */
  readonly model: string | null;
  /** The status the client got (403: refused path, 413: too big, 502/504: upstream failed). */
  readonly status: number;
  readonly requestBytes: number;
  readonly responseBytes: number;
  /** From arrival to the response's end, in ms. */
  readonly latencyMs: number;
  readonly tokens: CallTokens;
  /** Why the gateway refused or cut the call; absent when it went through whole. */
  readonly problem?: string;
}

export interface ModelGateway {
  readonly socketPath: string;
  /** Calls so far (a copy). */
  calls(): ModelCall[];
  /** Resolves once every call so far is written to model-calls.jsonl. */
  flushed(): Promise<void>;
  /** Stops listening, ends open calls and flushes the log. */
  close(): Promise<void>;
}
