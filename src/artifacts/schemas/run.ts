// Generated from run.schema.json by scripts/generate-types.mjs: do not edit.
// Change the schema, then run `npm run build` (or node scripts/generate-types.mjs).

/**
 * evalrig run record
 */
export interface RunRecord {
  schema: 'evalrig/run@1';
  campaign: string;
  eval: string;
  condition: string;
  run: number;
  status: 'completed' | 'timed_out' | 'failed' | 'broken' | 'limit_reached';
  /**
   * For limit_reached runs: the limit reached (campaign_cost: cut by the campaign's budget, replayed by a resume).
   */
  limit?: 'tokens' | 'cost' | 'model_requests' | 'campaign_cost';
  error?: string;
  started_at: string;
  finished_at: string;
  duration_ms: number;
  /**
   * where the run's time went: each phase it passed through, in order (prepare and start often ran ahead, while another run played)
   */
  phases?: {
    name: string;
    ms: number;
  }[];
  turns_planned: number;
  turns_completed: number;
  stopped_at_hand_over: boolean;
  stops: string[];
  /**
   * sha256 of each stop file's bytes, by its path in stops: resume and report notice a damaged stop
   */
  stops_sha256?: {
    [k: string]: string;
  };
  codebase?: Codebase;
  image: Image;
  engine?: Engine;
  /**
   * The services started beside the run's sandbox on its private network: each one's image, its readiness time, and, when it died while the run played, when, its exit code and last log lines (the run then failed in phase service; a service that died after the agent's first turn began is the agent's failure, see failure).
   */
  services?: {
    name: string;
    image: {
      tag: string;
      id: string;
    };
    ready_ms?: number;
    failure?: {
      at: string;
      exit_code: number | null;
      oom_killed: boolean;
      log_tail: string[];
    };
  }[];
  diff: Diff;
  checks: Check[];
  /**
   * The eval's check files the host copied into the work tree after the last turn, before the checks (work-tree paths), and those whose path the agent had changed (its own files replaced, not merged). Absent when the eval has none or the run ended before its checks.
   */
  check_files?: {
    placed: string[];
    replaced: string[];
  };
  measures: Measures;
  /**
   * Who had control when the run did not end as completed: harness (the engine, an image, a service that failed to start, the orchestrator's own error, set-up before the agent's first turn: left out of the measures and replayed on resume), model_api (the model API's errors after retries, as the gateway saw them), agent (its exit or crash, an environment it broke, a service that died while it had control) or timeout. Every class but harness counts against the run's condition. Absent on a completed run and on a run a limit ended.
   */
  failure?: {
    class: 'harness' | 'model_api' | 'agent' | 'timeout';
    reason: string;
  };
  /**
   * The phase a failed or broken run ended in: prepare (its environment), start (its sandbox), turn N, collect (a stop: the agent's processes stopped, the trees synced out, the stop read), agent (an adapter agent exited non-zero or reported an error), checks, record (the final diff and the run's files), service (a service beside the sandbox died; see services).
   */
  phase?: string;
  /**
   * Why the record in the repository differs from the host's own copy.
   */
  tampered?: string[];
  /**
   * The eval's message checks over the final messages of the stops: passed null when there was nothing to look at.
   */
  message_checks?: {
    name: string;
    stops: 'every' | 'hand_over' | 'last';
    rule: {
      [k: string]: string;
    };
    passed: boolean | null;
    /**
     * Each stop whose final message was read, by turn, and whether it held.
     */
    looked_at: {
      turn: number;
      passed: boolean;
    }[];
  }[];
  /**
   * The treatment check: each instruction the condition staged, and whether the model gateway saw a request carry it to the model.
   */
  treatment?: {
    staged: {
      kind: 'skill' | 'instructions';
      path: string;
      name: string | null;
      loads: boolean | null;
      /**
       * The agent's harness put it in what it sent the model (a tool result, a tool call or the user's prompt never counts); null: it cannot be decided (see undecided).
       */
      reached: boolean | null;
      first_call: number | null;
      /**
       * Why reaching cannot be decided: an empty file, a request that could not be read.
       */
      undecided?: string;
      /**
       * A skill: the model used it (its agent's skill tool naming it, or a tool call naming its SKILL.md), in an answer the gateway relayed.
       */
      used?: boolean;
      first_use_call?: number | null;
      listed_by_agent?: boolean;
    }[];
    reached: boolean | null;
    /**
     * A staged skill was used by the model; null when the condition stages no skill.
     */
    used?: boolean | null;
  };
  /**
   * The agent adapter's package, its exact version and the sha256 of the binary mounted into the containers.
   */
  agent?: {
    package: string;
    version: string;
    binary_sha256: string;
    /**
     * sha256 of evalrig's model relay the agent reaches the gateway through (codex).
     */
    relay_sha256?: string;
    /**
     * Sums over the run's turns (what each stop's agent holds).
     */
    totals: {
      tool_calls: number;
      tool_calls_failed: number;
      /**
       * Tool calls the agent refused to run (its own policy), over the run's turns.
       */
      tool_calls_refused?: number;
      model_requests: number;
      tokens: {
        input: number;
        output: number;
        cache_read: number;
        cache_write: number;
      };
      cost_usd: number | null;
    };
    /**
     * The model the agent asked for (codex: agent.model_name), which its tokens are priced with.
     */
    model?: string;
    /**
     * The Node runtime a Node-bundled agent runs on (Gemini CLI, Qwen Code): evalrig's pinned npm package, its exact version and the sha256 of its binary.
     */
    runtime?: {
      package: string;
      version: string;
      sha256: string;
    };
    /**
     * How the binary reached the containers: mounted read-only, or built into images derived from the run images.
     */
    install?: 'mount' | 'image';
    /**
     * With install `image`: each derived image (its tag and id) and the run image it derives from.
     */
    images?: {
      base: string;
      base_id: string;
      tag: string;
      id: string;
    }[];
  };
  fingerprint?: Fingerprint;
  /**
   * A run copied from an earlier campaign (evalrig run --reuse) whose every input was identical: the campaign that played it, its folder as given, the run there and the fingerprint both share. Its measures and files are that run's.
   */
  reused_from?: {
    campaign: string;
    folder: string;
    run: string;
    fingerprint: string;
  };
}
export interface Codebase {
  kind: 'git' | 'path' | 'snapshot';
  url?: string;
  ref?: string;
  path?: string;
  commit: string;
  branch: string;
  host_local?: true;
  origin?: string;
  dirty?: true;
}
export interface Image {
  tag: string;
  id: string;
  environment?: Environment;
}
/**
 * The environment image a run's image is built over (the eval set's Dockerfile over evalrig's base), and its setup commands.
 */
export interface Environment {
  /**
   * The Dockerfile, relative to the eval set's folder.
   */
  dockerfile: string;
  /**
   * The build context folder, relative to the eval set's folder.
   */
  context: string;
  /**
   * sha256 over the context's files, the Dockerfile's place, the base image's id and the build args; its first 12 hex are the tag's.
   */
  hash: string;
  tag: string;
  id: string;
  /**
   * The base image as named (BASE_IMAGE).
   */
  base_image: string;
  base_id: string;
  /**
   * The setup commands, in order.
   */
  setup: string[];
}
/**
 * An engine the runs ran on (a Docker or Podman engine, or a Kubernetes cluster): the address as the user gave it, who answered there (kind, its id and version), whether it runs rootless, and whether it held its containers to their memory and process limits.
 */
export interface Engine {
  address: string;
  kind: 'docker' | 'podman' | 'kubernetes';
  id: string;
  version: string;
  rootless: boolean;
  limits_enforced: boolean;
}
export interface Diff {
  files_added: number;
  files_modified: number;
  files_deleted: number;
  lines_added: number;
  lines_removed: number;
  untracked: number;
}
export interface Check {
  name: string;
  command: string;
  passed: boolean;
  exit_code: number | null;
  duration_ms: number;
  output: string;
  truncated: boolean;
}
export interface Measures {
  pr_draft_at_hand_over: boolean | null;
  pr_described: boolean | null;
  pr_refreshed: boolean | null;
  pr_marked_ready: boolean | null;
  gh_not_played: number;
  checks_passed: boolean | null;
  files_changed: number;
  lines_added: number;
  lines_removed: number;
  turns: number;
  duration_s: number;
  /**
   * The run's changed lines (added and removed) over its eval's reference diff's; null when the eval has no reference. 1: as large as the reference.
   */
  diff_vs_reference?: number | null;
  environment_broken: boolean;
  record_tampered: boolean;
  /**
   * Every instruction the condition staged reached the model (the treatment check); null when there was nothing to look for, it cannot be decided, or no gateway witnessed the session.
   */
  condition_reached?: boolean | null;
  /**
   * The model used a skill the condition staged (loaded is not used); null when it stages none or no gateway witnessed the session. Observational: reported beside the treatment check, never compared as a verdict.
   */
  skill_used?: boolean | null;
}
/**
 * Every input of the run (eval, condition, agent, images, stand-ins, limits, run number, ...), each by its sha256 (a file's: its bytes'), and the sha256 of them all: a later campaign copies the run instead of replaying it when its fingerprint is the same (evalrig run --reuse).
 */
export interface Fingerprint {
  sha256: string;
  inputs: {
    [k: string]: string;
  };
}
