// Generated from stop.schema.json by scripts/generate-types.mjs: do not edit.
// Change the schema, then run `npm run build` (or node scripts/generate-types.mjs).

/**
 * What the collector read at the end of one turn.
 */
export interface StopRecord {
  turn: number;
  phase: string;
  exit_code: number | null;
  duration_ms: number;
  kind: string | null;
  hand_over: boolean;
  branch: string | null;
  head: string | null;
  origin_has_head: boolean;
  pull: Pull | null;
  calls: Call[];
  diff: Diff;
  probes: {
    [k: string]: Probe;
  };
  at: string;
  /**
   * What the agent said last in this turn (untrusted text, capped): an adapter agent's final message, a command agent's last non-empty paragraph of stdout; null when it said nothing or its stdout was cut.
   */
  final_message?: string | null;
  /**
   * What the agent's transcript of this turn says (an adapter agent only); every field comes from untrusted output.
   */
  agent?: {
    /**
     * The turn's whole stream, relative to the run folder.
     */
    transcript: string;
    final_message: string | null;
    tool_calls: {
      total: number;
      failed: number;
      /**
       * Tool calls the agent refused to run (its own policy: a blocked command, a denied approval), read from the results it sent back; never counted as failed or done.
       */
      refused?: number;
      by_name: {
        [k: string]: {
          count: number;
          failed: number;
          refused?: number;
        };
      };
    };
    model_requests: number;
    api_retries: number;
    /**
     * Wall time the turn's model calls waited behind the campaign's upstream limits (not charged to the turn's time-out).
     */
    queued_ms?: number;
    tokens: {
      input: number;
      output: number;
      cache_read: number;
      cache_write: number;
    };
    cost_usd: number | null;
    error: string | null;
    complete: boolean;
    truncated: boolean;
    /**
     * Where the figures above come from: the model gateway's record of the turn (final_message, tool_calls, model_requests, api_retries, tokens, cost_usd). error, complete and truncated are the stream's.
     */
    witness?: {
      by: 'gateway';
      calls: null | {
        first: number;
        last: number;
      };
      tokens_unreported: number;
      price_table: string;
    };
    /**
     * What the agent's own stream said of the turn: shown beside the witness, never reported as a figure.
     */
    claim?: {
      final_message: string | null;
      model_requests: number;
      tool_calls: number;
      tool_calls_failed: number;
      tokens: AgentTokens;
      cost_usd: number | null;
      disagreements: string[];
    };
  };
}
export interface Pull {
  number: number;
  url: string;
  title: string;
  body: string;
  state: 'OPEN' | 'CLOSED' | 'MERGED';
  draft: boolean;
  described: boolean | null;
  /**
   * @maxItems 100
   */
  labels?: string[];
  /**
   * @maxItems 100
   */
  assignees?: string[];
}
export interface Call {
  seq: number;
  time: string;
  argv: string[];
  cwd: string;
  command: string | null;
  stdin: string | null;
  description: string | null;
  exit_code: number;
  stdout: string;
  stderr: string;
  played: boolean;
  marks_ready: boolean;
  pr: number | null;
  [k: string]: unknown;
}
export interface Diff {
  files_added: number;
  files_modified: number;
  files_deleted: number;
  lines_added: number;
  lines_removed: number;
  untracked: number;
}
export interface Probe {
  command: string;
  exit_code: number | null;
  stdout: string;
  stderr: string;
}
export interface AgentTokens {
  input: number;
  output: number;
  cache_read: number;
  cache_write: number;
}
