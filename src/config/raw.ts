/**
 * The eval set as the user writes it in evals.json, once it has passed
 * evals.schema.json: optional fields still absent, paths as written. Only the
 * loader sees this form; everyone else gets the normalized EvalSet.
 */
import type { CodebaseSource } from './codebase.js';
import type { RawMessageCheck } from './message-checks.js';

export interface RawCheck {
  name: string;
  run: string;
}

export interface RawCondition {
  description?: string;
  /** from (relative to the eval set folder) -> to (relative to the work tree). */
  stage?: Record<string, string>;
  env?: Record<string, string>;
  agent_args?: string[];
  model_script?: string;
  /** This condition's own agent, replacing the set's (a cross-agent campaign). */
  agent?: RawAgent;
}

export type RawTurn = string | { message: string; phase?: string };

export interface RawPullRequest {
  title: string;
  body?: string;
  head?: string;
  base?: string;
  draft?: boolean;
  state?: 'OPEN' | 'CLOSED' | 'MERGED';
}

export interface RawEnvironment {
  dockerfile: string;
  context?: string;
  setup?: string[];
}

export interface RawEval {
  id: string;
  prompt: string;
  expected_output?: string;
  expectations?: string[];
  files?: string[];
  files_root?: string;
  codebase?: CodebaseSource;
  runs?: number;
  phase?: string;
  turns?: RawTurn[];
  start?: { branch?: string; pull_requests?: RawPullRequest[] };
  timeout?: number;
  turn_timeout?: number;
  checks?: RawCheck[];
  message_checks?: RawMessageCheck[];
  environment?: RawEnvironment;
  services?: Record<string, RawService>;
  model_script?: string;
}

export interface RawEvalSet {
  $schema?: string;
  name: string;
  description?: string;
  codebase?: CodebaseSource;
  runs?: number;
  timeout?: number;
  turn_timeout?: number;
  agent: RawAgent;
  conditions?: Record<string, RawCondition>;
  baseline_condition?: string;
  probes?: Record<string, string>;
  hand_over?: string[];
  resources?: { memory?: string | number; cpus?: number; pids?: number; disk?: string | number };
  repo_owner?: string;
  limits?: { tokens?: number; cost?: number; model_requests?: number };
  max_cost_usd?: number;
  rate_limits?: {
    max_in_flight?: number;
    requests_per_minute?: number;
    tokens_per_minute?: number;
  };
  checks?: RawCheck[];
  message_checks?: RawMessageCheck[];
  builtin_message_checks?: string[];
  environment?: RawEnvironment;
  services?: Record<string, RawService>;
  judge?: RawJudge;
  evals: RawEval[];
}

export interface RawJudge {
  model: { script: string } | { url: string; key_env: string };
  api?: 'messages' | 'responses';
  model_name?: string;
  max_diff_bytes?: number;
  max_transcript_bytes?: number;
  max_tokens?: number;
  compare?: [string, string];
}

export interface RawService {
  dockerfile?: string;
  context?: string;
  image?: string;
  command?: string[];
  env?: Record<string, string>;
  ready: { command?: string; port?: number; timeout?: number };
  resources?: { memory?: string | number; cpus?: number; pids?: number };
  setup?: string[];
}

/** An agent as written: the set's `agent`, or a condition's own. */
export interface RawAgent {
  type?: 'command' | 'claude-code' | 'codex' | 'gemini-cli' | 'opencode' | 'qwen-code';
  version?: string;
  model_name?: string;
  install?: 'mount' | 'image';
  command?: string[];
  resume_command?: string[];
  env?: string[];
  model?:
    { script: string } | { url: string; key_env: string } | { url: string; token_env: string };
}
