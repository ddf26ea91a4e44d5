// Generated from trajectory.schema.json by scripts/generate-types.mjs: do not edit.
// Change the schema, then run `npm run build` (or node scripts/generate-types.mjs).

export type Step =
  | {
      i: number;
      turn: number;
      at: string | null;
      duration_ms: number | null;
      role: string;
      text: string;
      call: number;
      kind: 'message';
    }
  | {
      i: number;
      turn: number;
      at: string | null;
      duration_ms: number | null;
      call: number;
      model: string | null;
      outcome: string;
      reason: string | null;
      status: number;
      side: boolean;
      text: string | null;
      tokens: Tokens;
      tool_steps: number[];
      kind: 'model';
    }
  | {
      i: number;
      turn: number;
      at: string | null;
      duration_ms: number | null;
      id: string | null;
      name: string;
      input: string;
      output: string | null;
      is_error: boolean | null;
      call: number;
      kind: 'tool';
    }
  | {
      i: number;
      turn: number;
      at: string | null;
      duration_ms: number | null;
      seq: number;
      args: string;
      exit_code: number;
      stdout: string;
      stderr: string;
      played: boolean;
      marks_ready: boolean;
      kind: 'gh';
    }
  | {
      i: number;
      turn: number;
      at: string | null;
      duration_ms: number | null;
      stream: 'stdout' | 'stderr' | 'transcript';
      text: string;
      kind: 'output';
    }
  | {
      i: number;
      turn: number;
      at: string | null;
      duration_ms: number | null;
      phase: string;
      stop_kind: string | null;
      hand_over: boolean;
      exit_code: number | null;
      branch: string | null;
      head: string | null;
      pull: null | Pull;
      diff: Diff;
      patch: string | null;
      probes: {
        [k: string]: Probe;
      };
      final_message: string | null;
      final_step: number | null;
      agent: null | {
        model_requests: number;
        tool_calls: number;
        tokens_in: number;
        tokens_out: number;
        cost_usd: number | null;
        /**
         * Tool calls the agent itself refused to run in this turn (its own policy); absent where the record did not count them.
         */
        tool_calls_refused?: number;
        /**
         * The refused calls by tool name.
         */
        refused_by_name?: {
          [k: string]: number;
        };
        disagreements: string[];
      };
      kind: 'stop';
    };

/**
 * evalrig trajectory: a run, step by step, as the host recorded it
 */
export interface Trajectory {
  schema: 'evalrig/trajectory@1';
  campaign: string;
  eval: string;
  condition: string;
  run: number;
  status: 'completed' | 'timed_out' | 'failed' | 'broken' | 'limit_reached';
  error: string | null;
  source: 'gateway' | 'output' | 'stream' | 'none';
  started_at: string;
  duration_ms: number;
  steps: Step[];
  steps_omitted: number;
  totals: {
    model_calls: number;
    tool_calls: number;
    gh_calls: number;
    tokens_in: number;
    tokens_out: number;
  };
  checks: {
    name: string;
    passed: boolean;
    exit_code: number | null;
    output: string;
  }[];
  message_checks: {
    name: string;
    passed: boolean | null;
    looked_at: {
      turn: number;
      passed: boolean;
      step: number | null;
    }[];
  }[];
  /**
   * run.json's treatment check: each staged file, whether it reached the model (null: undecided, with why) and, a skill, whether the model used it. Absent when the run kept none.
   */
  treatment?: {
    staged: {
      kind: 'skill' | 'instructions';
      path: string;
      name: string | null;
      loads: boolean | null;
      reached: boolean | null;
      first_call: number | null;
      undecided?: string;
      used?: boolean;
      first_use_call?: number | null;
      listed_by_agent?: boolean;
    }[];
    reached: boolean | null;
    used?: boolean | null;
  };
  grading: null | {
    status: 'graded' | 'error';
    error: string | null;
    expectations: {
      expectation: string;
      passed: boolean | null;
      evidence: string | null;
      step: number | null;
    }[];
  };
}
export interface Tokens {
  input: number | null;
  output: number | null;
  cache_read: number | null;
  cache_write: number | null;
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
