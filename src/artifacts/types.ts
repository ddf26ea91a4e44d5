/**
 * The artifacts a campaign writes, as TypeScript types. Each has a JSON Schema
 * in ./schemas/<kind>.schema.json and is validated before it is written
 * (see writeArtifact). Field names are snake_case: they are a file format.
 */

/** Where a run's codebase came from: the resolved commit, never only the declared ref. */
export interface CodebaseProvenance {
  readonly kind: 'git' | 'path' | 'snapshot';
  readonly url?: string;
  readonly ref?: string;
  readonly path?: string;
  readonly commit: string;
  readonly branch: string;
  readonly host_local?: true;
  readonly origin?: string;
  readonly dirty?: true;
}

/** One line of the gh stand-in's calls.jsonl (see stand-in/gh/README.md). */
export interface GhCall {
  readonly seq: number;
  readonly time: string;
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly command: string | null;
  readonly stdin: string | null;
  readonly description: string | null;
  readonly exit_code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly played: boolean;
  readonly marks_ready: boolean;
  readonly pr: number | null;
}

/** A pull request as the stand-in's state.json holds it. */
export interface GhPullRequest {
  readonly number: number;
  readonly title: string;
  readonly body: string;
  readonly head: string;
  readonly base: string;
  readonly draft: boolean;
  readonly state: 'OPEN' | 'CLOSED' | 'MERGED';
  readonly created_at: string;
  readonly updated_at: string;
  readonly url: string;
  readonly author?: string;
  /** Its labels' names (the stand-in leaves the field out when there are none). */
  readonly labels?: readonly string[];
  /** The logins assigned to it (left out when none). */
  readonly assignees?: readonly string[];
}

/** The pull request of the branch at a stop. */
export interface PullAtStop {
  readonly number: number;
  readonly url: string;
  readonly title: string;
  readonly body: string;
  readonly state: 'OPEN' | 'CLOSED' | 'MERGED';
  readonly draft: boolean;
  /** Body equals what the description probe printed at this stop; null when there is no such probe. */
  readonly described: boolean | null;
  /** Its labels' names, when it has any (at most 100). */
  readonly labels?: readonly string[];
  /** The logins assigned to it, when any (at most 100). */
  readonly assignees?: readonly string[];
}

export interface ProbeOutput {
  readonly command: string;
  readonly exit_code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Diff counters against refs/evalrig/baseline. */
export interface DiffCounters {
  readonly files_added: number;
  readonly files_modified: number;
  readonly files_deleted: number;
  readonly lines_added: number;
  readonly lines_removed: number;
  readonly untracked: number;
}

/** The agent an adapter installed: recorded in conditions.json and run.json. */
export interface AgentIdentity {
  readonly package: string;
  readonly version: string;
  /** sha256 of the binary mounted into the containers (or built into their images). */
  readonly binary_sha256: string;
  /** sha256 of evalrig's model relay, for an agent that reaches the gateway through it (codex). */
  readonly relay_sha256?: string;
  /** The model the agent asked for, when evalrig chose it (codex: agent.model_name). */
  readonly model?: string;
  /** The Node runtime a Node-bundled agent runs on (Gemini CLI, Qwen Code), mounted beside it. */
  readonly runtime?: AgentRuntimeIdentity;
  /** How the binary reached the containers. */
  readonly install?: 'mount' | 'image';
  /** With install `image`: the derived images (conditions.json: all; run.json: the run's). */
  readonly images?: readonly AgentImageRecord[];
}

/** The exact Node evalrig installs for Node-bundled agents: its npm package and binary's sha256. */
export interface AgentRuntimeIdentity {
  readonly package: string;
  readonly version: string;
  readonly sha256: string;
}

/** An image derived from a run image with the agent built in. */
export interface AgentImageRecord {
  /** The run image as named, and its id. */
  readonly base: string;
  readonly base_id: string;
  readonly tag: string;
  readonly id: string;
}

export interface AgentTokens {
  readonly input: number;
  readonly output: number;
  readonly cache_read: number;
  readonly cache_write: number;
}

/** What an adapter agent's transcript of one turn says (untrusted output, parsed). */
export interface TurnAgentRecord {
  /** The turn's whole stream, relative to the run folder (turns/turn-NN.jsonl). */
  readonly transcript: string;
  readonly final_message: string | null;
  readonly tool_calls: {
    readonly total: number;
    readonly failed: number;
    readonly by_name: Readonly<Record<string, { readonly count: number; readonly failed: number }>>;
  };
  readonly model_requests: number;
  readonly api_retries: number;
  /** Wall time (ms) the turn's calls waited behind the upstream's limits (not charged to its time-out). */
  readonly queued_ms?: number;
  readonly tokens: AgentTokens;
  /** This turn's cost in USD (not the session's running total), or null if not reported. */
  readonly cost_usd: number | null;
  /** The agent's own error, or null. */
  readonly error: string | null;
  /** The stream's final result line was seen. */
  readonly complete: boolean;
  readonly truncated: boolean;
  /**
   * Where the figures come from: the model gateway's record of the turn (final_message,
   * tool_calls, model_requests, api_retries, tokens, cost_usd); error, complete and truncated
   * are the stream's. Absent in stops of older versions (figures from the stream).
   */
  readonly witness?: {
    readonly by: 'gateway';
    /** The turn's calls in the run's model-calls.jsonl (their `seq`), or null when it made none. */
    readonly calls: { readonly first: number; readonly last: number } | null;
    /** Answered calls whose usage the upstream did not report. */
    readonly tokens_unreported: number;
    /** The price table the cost was priced with. */
    readonly price_table: string;
  };
  /** What the agent's own stream said (its claim), and where it disagrees with the witness. */
  readonly claim?: {
    readonly final_message: string | null;
    readonly model_requests: number;
    readonly tool_calls: number;
    readonly tool_calls_failed: number;
    readonly tokens: AgentTokens;
    readonly cost_usd: number | null;
    readonly disagreements: readonly string[];
  };
}

/** run.json's agent: who played, and the sums of its turns. */
export interface RunAgentRecord extends AgentIdentity {
  readonly totals: {
    readonly tool_calls: number;
    readonly tool_calls_failed: number;
    readonly model_requests: number;
    readonly tokens: AgentTokens;
    /** null when no turn reported a cost. */
    readonly cost_usd: number | null;
  };
}

/** What the collector reads at the end of a turn: stops/stop-NN.json. */
export interface StopRecord {
  readonly turn: number;
  readonly phase: string;
  readonly exit_code: number | null;
  readonly duration_ms: number;
  /** The stop's kind, from the kind probe (trimmed stdout); null when it printed nothing. */
  readonly kind: string | null;
  /** The kind is one of the eval set's hand_over kinds. */
  readonly hand_over: boolean;
  readonly branch: string | null;
  readonly head: string | null;
  readonly origin_has_head: boolean;
  /** The branch's pull request at this moment (newest open first), or null. */
  readonly pull: PullAtStop | null;
  /** Calls to gh made since the previous stop. */
  readonly calls: readonly GhCall[];
  readonly diff: DiffCounters;
  readonly probes: Readonly<Record<string, ProbeOutput>>;
  readonly at: string;
  /**
   * What the agent said last in this turn (untrusted, capped): an adapter agent's final message,
   * a command agent's last non-empty paragraph of stdout; null when none. Absent in older stops.
   */
  readonly final_message?: string | null;
  /** An adapter agent's turn, as its transcript says (absent for a command agent). */
  readonly agent?: TurnAgentRecord;
}

export interface CheckResult {
  readonly name: string;
  readonly command: string;
  readonly passed: boolean;
  readonly exit_code: number | null;
  readonly duration_ms: number;
  readonly output: string;
  readonly truncated: boolean;
}

/** One message check over a run's final messages. */
export interface MessageCheckResult {
  readonly name: string;
  readonly stops: 'every' | 'hand_over' | 'last';
  /** The rule as the eval set wrote it (`contains`, `matches` with `flags`, ...). */
  readonly rule: Readonly<Record<string, string>>;
  /** Every message looked at held; null when there was none to look at (never false). */
  readonly passed: boolean | null;
  /** The stops whose final message was read, by turn. */
  readonly looked_at: ReadonlyArray<{ readonly turn: number; readonly passed: boolean }>;
}

/** Per-run measures. null: nothing to look at (never a stand-in for false). */
export interface RunMeasures {
  readonly pr_draft_at_hand_over: boolean | null;
  readonly pr_described: boolean | null;
  readonly pr_refreshed: boolean | null;
  readonly pr_marked_ready: boolean | null;
  readonly gh_not_played: number;
  /** The agent left its environment in a state the stop could not be read from. */
  readonly environment_broken: boolean;
  /**
   * The agent's own record differs from the host's witness: the gh record in the repository
   * from the host's copy, or its stream from what the model gateway relayed.
   */
  readonly record_tampered: boolean;
  /**
   * Every instruction the condition staged reached the model (the treatment check); null when
   * nothing was staged to look for, or no gateway witnessed the session (a command agent).
   * Absent in runs of older versions.
   */
  readonly condition_reached?: boolean | null;
  readonly checks_passed: boolean | null;
  readonly files_changed: number;
  readonly lines_added: number;
  readonly lines_removed: number;
  readonly turns: number;
  readonly duration_s: number;
}

/**
 * completed and timed_out are outcomes of the agent; broken too (it left its
 * environment in a state that cannot be read: counted, not redone); failed is
 * the harness's (redone on resume).
 */
export type RunStatus = 'completed' | 'timed_out' | 'failed' | 'broken' | 'limit_reached';

/**
 * A limit a run reached: its own (`limits` in the eval set), or the campaign's budget
 * (`campaign_cost`: the run was cut, not finished; a resume with a larger budget replays it).
 */
export type RunLimitName = 'tokens' | 'cost' | 'model_requests' | 'campaign_cost';

/**
 * The treatment check of a run: each instruction its condition staged (a skill, a CLAUDE.md or
 * AGENTS.md), and whether the model gateway saw a request carry it to the model.
 */
export interface RunTreatment {
  readonly staged: ReadonlyArray<{
    readonly kind: 'skill' | 'instructions';
    /** Where it was staged, relative to the work tree. */
    readonly path: string;
    /** A skill's name; null for instructions. */
    readonly name: string | null;
    /** The agent is known to load it from there (null: an agent evalrig knows nothing of). */
    readonly loads: boolean | null;
    readonly reached: boolean;
    /** The first model call (`seq` in model-calls.jsonl) whose request held it, or null. */
    readonly first_call: number | null;
    /** The agent's own start-up listing named the skill (its claim); absent when it shows none. */
    readonly listed_by_agent?: boolean;
  }>;
  /** Every staged instruction reached the model; null when there was nothing to look for. */
  readonly reached: boolean | null;
}

/** runs/<eval>/<condition>/run-NN/run.json */
export interface RunRecord {
  readonly schema: 'evalrig/run@1';
  readonly campaign: string;
  readonly eval: string;
  readonly condition: string;
  readonly run: number;
  readonly status: RunStatus;
  /** For limit_reached runs: which limit. */
  readonly limit?: RunLimitName;
  /** For failed and broken runs: what failed, in a sentence. */
  readonly error?: string;
  /** For failed and broken runs: the phase it happened in (prepare, start, turn N, collect, agent, checks, record). */
  readonly phase?: string;
  /** Why the gh record in the repository differs from the host's own copy, when it does. */
  readonly tampered?: readonly string[];
  readonly started_at: string;
  readonly finished_at: string;
  readonly duration_ms: number;
  /** Turns the eval set plans (1 + later messages). */
  readonly turns_planned: number;
  /** Turns that reached a stop. */
  readonly turns_completed: number;
  readonly stopped_at_hand_over: boolean;
  readonly stops: readonly string[];
  /** sha256 of each stop file's bytes, by its path in `stops` (absent in runs of older versions). */
  readonly stops_sha256?: Readonly<Record<string, string>>;
  readonly codebase?: CodebaseProvenance;
  readonly image: ImageRecord;
  readonly diff: DiffCounters;
  readonly checks: readonly CheckResult[];
  readonly measures: RunMeasures;
  /** The eval's message checks (absent in runs of older versions). */
  readonly message_checks?: readonly MessageCheckResult[];
  /** An adapter agent: its package, version, binary and the totals of its turns. */
  readonly agent?: RunAgentRecord;
  /** An adapter agent's treatment check (absent for a command agent, and in older runs). */
  readonly treatment?: RunTreatment;
  /** The engine the run's sandbox ran on (absent when none started, and in runs of older versions). */
  readonly engine?: EngineRecord;
  /** Where the run's time went: each phase it passed through, in order (absent in older runs). */
  readonly phases?: readonly PhaseTiming[];
  /** The services started beside the run's sandbox (absent: none). */
  readonly services?: readonly RunServiceRecord[];
}

/**
 * One phase of a run and how long it took: prepare and start (often ahead of
 * the run's own start, while another run plays), turn N, collect (a turn's
 * stop), checks, record.
 */
export interface PhaseTiming {
  readonly name: string;
  readonly ms: number;
}

/** A service of a run: its image, how long it took to be ready, and how it died if it did. */
export interface RunServiceRecord {
  readonly name: string;
  readonly image: { readonly tag: string; readonly id: string };
  /** From its container's creation to its readiness; absent when the run's start failed before. */
  readonly ready_ms?: number;
  /** Set when it was found dead while the run played (the run then failed, not the agent). */
  readonly failure?: {
    readonly at: string;
    readonly exit_code: number | null;
    readonly oom_killed: boolean;
    readonly log_tail: readonly string[];
  };
}

/** A Docker engine runs ran on: the address as given, and who answered there. */
export interface EngineRecord {
  /** As the user gave it: an --engine value (a context's name, an address), or DOCKER_HOST's. */
  readonly address: string;
  readonly kind: 'docker' | 'podman';
  /** dockerd's ID; Podman's, a digest of its host name and storage roots. */
  readonly id: string;
  readonly version: string;
  readonly rootless: boolean;
  /** False when the engine did not hold its containers to their memory and process limits. */
  readonly limits_enforced: boolean;
}

/** The environment image a run's image is built over, and its setup commands. */
export interface EnvironmentProvenance {
  /** Relative to the eval set's folder. */
  readonly dockerfile: string;
  readonly context: string;
  /** sha256 of the context, the Dockerfile's place, the base's id and the build args. */
  readonly hash: string;
  readonly tag: string;
  readonly id: string;
  readonly base_image: string;
  readonly base_id: string;
  readonly setup: readonly string[];
}

/** The image a run's container started from; over an environment image when the eval names one. */
export interface ImageRecord {
  readonly tag: string;
  readonly id: string;
  readonly environment?: EnvironmentProvenance;
}

/** The campaign's image, and the images of the evals that name an environment. */
export interface CampaignImageRecord extends ImageRecord {
  readonly environments?: ReadonlyArray<{
    readonly evals: readonly string[];
    readonly image: { readonly tag: string; readonly id: string };
    readonly environment: EnvironmentProvenance;
  }>;
}

/** <out>/conditions.json: what each condition is, and the campaign's inputs. */
export interface ConditionsFile {
  readonly schema: 'evalrig/conditions@1';
  readonly campaign: string;
  readonly eval_set: { readonly name: string; readonly path: string; readonly sha256: string };
  readonly baseline_condition: string;
  readonly conditions: ReadonlyArray<{
    readonly name: string;
    readonly description?: string;
    readonly stage: ReadonlyArray<{
      readonly from: string;
      readonly to: string;
      readonly sha256: string;
    }>;
    readonly env: readonly string[];
    readonly agent_args: readonly string[];
    /** Its agent, in a campaign that plays more than one (a cross-agent campaign). */
    readonly agent?: AgentIdentity;
  }>;
  readonly evals: ReadonlyArray<{
    readonly id: string;
    readonly runs: number;
    readonly turns: number;
    readonly codebase?: CodebaseProvenance;
    /** What the agent was asked: the first turn's message (absent in campaigns of older versions). */
    readonly prompt?: string;
    /** The later turns' messages, in order. */
    readonly messages?: ReadonlyArray<{ readonly message: string; readonly phase: string }>;
    /** The eval's expectations, when the eval set has them. */
    readonly expectations?: readonly string[];
    /** The names of the eval's message checks. */
    readonly message_checks?: readonly string[];
  }>;
  readonly image: CampaignImageRecord;
  /** The engines this invocation spread its runs over, in order (absent in campaigns of older versions). */
  readonly engines?: readonly EngineRecord[];
  readonly stand_in_sha256: string;
  /**
   * The adapter agent: its package, version and binary (absent for a command agent, and
   * when the campaign plays several: each condition then names its own).
   */
  readonly agent?: AgentIdentity;
  readonly evalrig_version: string;
  readonly created_at: string;
  readonly options: {
    readonly jobs: number;
    readonly stop_at_hand_over: boolean;
    readonly only?: readonly string[];
    readonly conditions?: readonly string[];
  };
}

/** Who judged: the model its requests named, and where it answered from. */
export interface JudgeIdentity {
  readonly model: string;
  /** `script`: the model stand-in played a script; `api`: a real Messages API. */
  readonly source: 'script' | 'api';
  /** sha256 of the script's bytes (a changed script is another judge). */
  readonly script_sha256?: string;
  /** The API's origin (never its key). */
  readonly url?: string;
}

/** A versioned rubric prompt and the sha256 of its text. */
export interface RubricRecord {
  readonly version: string;
  readonly sha256: string;
}

/** One judge call as the host's model gateway logged it. */
export interface JudgeCallRecord {
  readonly time: string;
  readonly status: number;
  readonly latency_ms: number;
  readonly input_tokens: number | null;
  readonly output_tokens: number | null;
  readonly problem?: string;
}

/** One expectation as the judge graded it; passed and evidence null on a grading error. */
export interface GradedExpectation {
  readonly expectation: string;
  readonly passed: boolean | null;
  readonly evidence: string | null;
}

/** runs/<eval>/<condition>/run-NN/grading.json */
export interface GradingFile {
  readonly schema: 'evalrig/grading@1';
  readonly campaign: string;
  readonly eval: string;
  readonly condition: string;
  readonly run: number;
  /** `error`: no grade (never a fail); `error` says why. */
  readonly status: 'graded' | 'error';
  readonly error?: string;
  readonly judge: JudgeIdentity;
  readonly rubric: RubricRecord;
  readonly inputs_sha256: string;
  readonly cache_key: string;
  readonly expectations: readonly GradedExpectation[];
  /** Share of the expectations passed; null on an error. */
  readonly expectations_passed: number | null;
  readonly all_passed: boolean | null;
  readonly calls: readonly JudgeCallRecord[];
  readonly graded_at: string;
}

/** comparisons/<a>.vs.<b>/<eval>/run-NN/comparison.json: two conditions' runs judged blind. */
export interface ComparisonFile {
  readonly schema: 'evalrig/comparison@1';
  readonly campaign: string;
  readonly eval: string;
  readonly run: number;
  readonly conditions: readonly [string, string];
  /** sha256 of (campaign, eval, run); its first byte's parity chose the order. */
  readonly seed: string;
  /** The conditions as the judge saw them: state A, then state B. */
  readonly order: readonly [string, string];
  readonly status: 'judged' | 'error';
  readonly error?: string;
  /** A condition, `tie`, or null on an error. */
  readonly winner: string | null;
  readonly reason: string | null;
  readonly judge: JudgeIdentity;
  readonly rubric: RubricRecord;
  readonly inputs_sha256: string;
  readonly cache_key: string;
  readonly calls: readonly JudgeCallRecord[];
  readonly judged_at: string;
}
