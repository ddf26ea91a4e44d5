// Generated from model-call.schema.json by scripts/generate-types.mjs: do not edit.
// Change the schema, then run `npm run build` (or node scripts/generate-types.mjs).

export type Body =
  | {
      block: string;
      exact?: false;
      scrubbed?: true;
    }
  | {
      omitted: string;
    };

/**
 * evalrig model call: one line of a flight record's model-calls.jsonl (src/flight/README.md)
 */
export interface ModelCall {
  seq: number;
  time: string;
  method: string;
  path: string;
  api: 'messages' | 'responses' | 'chat' | 'gemini' | null;
  model: string | null;
  status: number;
  outcome: 'complete' | 'cut' | 'incomplete' | 'failed' | 'error' | 'refused';
  reason: string | null;
  requestBytes: number;
  responseBytes: number;
  latencyMs: number;
  queuedMs?: number;
  /**
   * How often the upstream sent back a secret the host added (the key or token): masked in what reached the agent, and in what is kept.
   */
  echoesScrubbed?: number;
  tokens: {
    input: number | null;
    output: number | null;
    cacheRead: number | null;
    cacheWrite: number | null;
  };
  /**
   * Requests of the tools the API runs itself, as the answer's usage counts them (Messages: usage.server_tool_use), billed apart from tokens. Absent when none.
   */
  serverTools?: {
    webSearch: number;
    webFetch: number;
  };
  answerId: string | null;
  stopReason: string | null;
  /**
   * @maxItems 200
   */
  toolCalls: {
    id: string | null;
    name: string;
  }[];
  request?: Body;
  response?: Body;
  problem?: string;
}
