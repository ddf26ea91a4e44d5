import type { StepCheck } from './step-checks.js';
/**
 * The eval set as evalrig uses it: loaded from evals.json, validated against
 * evals.schema.json, defaults applied and paths made absolute. What the user
 * writes is documented in the schema; this is the normalized form.
 */
import type { AdapterKind } from './agent-kinds.js';
import type { CodebaseSource } from './codebase.js';
import type { MessageCheck } from './message-checks.js';

/** A path the condition places into the environment, forced into the baseline. */
export interface StagedPath {
  /** Absolute host path (file or folder), resolved from the eval set folder. */
  readonly from: string;
  /** Path relative to the work tree. */
  readonly to: string;
}

export interface Condition {
  readonly name: string;
  readonly description?: string;
  readonly stage: readonly StagedPath[];
  /** Extra environment variables for the agent, literal values. */
  readonly env: Readonly<Record<string, string>>;
  /** Appended to the agent command (every turn). */
  readonly agent_args: readonly string[];
  /** Absolute path of the model script its runs play (claude-code), overriding the eval's. */
  readonly model_script?: string;
  /** Its own agent, replacing the set's for its runs (a cross-agent campaign); see agentOf. */
  readonly agent?: AgentSpec;
  /** In a matrix (the set's `agents`): the condition as declared and its agent's type. */
  readonly matrix?: MatrixCell;
}

/** Where an expanded condition sits in a matrix: `with_skill@codex` is { base: 'with_skill', agent: 'codex' }. */
export interface MatrixCell {
  readonly base: string;
  readonly agent: string;
}

/**
 * Where an adapter's model calls go: a model script the offline stand-in plays (absolute
 * path), or the real API at `url` with the key read from the host variable `key_env`.
 */
export type ModelSpec =
  { readonly script: string } | { readonly url: string; readonly key_env: string };

/**
 * Where an adapter agent's model calls go: a {@link ModelSpec}, or (claude-code) the Messages
 * API at `url` with a Claude subscription's OAuth token read from the host variable `token_env`.
 */
export type AgentModelSpec = ModelSpec | { readonly url: string; readonly token_env: string };

/**
 * How the agent is run. Placeholders in command arguments: {prompt}, {turn},
 * {phase}, {eval}, {condition}, {run}, {eval_set_dir} (where the eval set
 * folder is mounted in the container, read only).
 */
export interface AgentSpec {
  /**
   * Absent: `command`, the argv below as given. An adapter kind (ADAPTER_KINDS): its adapter
   * of src/agents plays the turns (command and resume_command are then empty).
   */
  readonly type?: AgentType;
  /** The exact package version of an adapter's agent; absent for `command`. */
  readonly version?: string;
  /** argv of the first turn. */
  readonly command: readonly string[];
  /** argv of later turns (default: command). */
  readonly resume_command: readonly string[];
  /** Names of host environment variables passed through; nothing else is. */
  readonly env: readonly string[];
  /** Where an adapter agent's model calls go, unless an eval or condition names a script. */
  readonly model?: AgentModelSpec;
  /** The model an agent of MODEL_NAMED_KINDS asks for (and is priced by); absent for other types. */
  readonly model_name?: string;
  /**
   * How an adapter agent reaches the containers: its binary mounted (`mount`), or built into
   * an image derived from each run image (`image`). Absent for a command agent.
   */
  readonly install?: AgentInstallMode;
}

/** The kinds of agent evalrig knows how to play: a command of the eval set's, or an adapter's. */
export type AgentType = 'command' | AdapterKind;

/** How an adapter agent's binary reaches the containers. */
export type AgentInstallMode = 'mount' | 'image';

/** A later user message. */
export interface Turn {
  readonly message: string;
  readonly phase: string;
}

/** A pull request seeded into the gh stand-in's state before the run (no call recorded). */
export interface SeededPullRequest {
  readonly title: string;
  readonly body: string;
  /** Default: the start branch. */
  readonly head?: string;
  /** Default: the codebase's branch. */
  readonly base?: string;
  readonly draft: boolean;
  readonly state: 'OPEN' | 'CLOSED' | 'MERGED';
}

/** A prepared state the run starts from. */
export interface StartState {
  /** Branch created at the baseline, checked out and pushed. */
  readonly branch?: string;
  readonly pull_requests: readonly SeededPullRequest[];
}

export interface Check {
  readonly name: string;
  /** Shell command run with `sh -c` in the work tree after the last turn. */
  readonly run: string;
}

/**
 * The toolchain of an eval's container: an image built from a Dockerfile of
 * the eval set over evalrig's base image (evalrig's own layers go on top),
 * and setup commands whose ignored output every run of a commit starts with.
 */
export interface EnvironmentImageSpec {
  /** Absolute host path of the Dockerfile (inside `context`). */
  readonly dockerfile: string;
  /** Absolute host path of the build context folder. */
  readonly context: string;
  /** Shell commands run once per (commit, image) with the network; may be empty. */
  readonly setup: readonly string[];
}

/**
 * A service every run of an eval gets beside its agent (a database), on the
 * run's private network, reached by `name`. Its image is built from a
 * Dockerfile over evalrig's base image, or is a local image of the engine.
 */
export interface ServiceDef {
  /** Its host name on the run's network. */
  readonly name: string;
  readonly image:
    { readonly dockerfile: string; readonly context: string } | { readonly local: string };
  /** The main process (argv); absent: the image's own. */
  readonly command?: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** A shell command in the service that exits 0, or a port the agent's container reaches; seconds. */
  readonly ready: { readonly command?: string; readonly port?: number; readonly timeout: number };
  readonly resources: {
    readonly memory_bytes: number;
    readonly cpus: number;
    readonly pids: number;
  };
  /** Shell commands run once per image in a ready service; what they leave is the runs' image. */
  readonly setup: readonly string[];
}

export interface Eval {
  readonly id: string;
  readonly prompt: string;
  readonly expected_output?: string;
  /** Sentences the judge grades each run against (empty: nothing to grade). */
  readonly expectations: readonly string[];
  /** Overlay: absolute host path -> path relative to the work tree. */
  readonly files: readonly StagedPath[];
  /** Absent when the eval has no codebase (a fresh repository with only its files). */
  readonly codebase?: {
    readonly source: CodebaseSource;
    readonly baseDir: string;
    /** Where evals.json declares it: `/codebase`, or `/evals/<i>/codebase` for the eval's own. */
    readonly pointer?: string;
  };
  readonly runs: number;
  /** Phase of the first turn. */
  readonly phase: string;
  readonly turns: readonly Turn[];
  readonly start?: StartState;
  /** Seconds for the whole run. */
  readonly timeout: number;
  /** Seconds for one turn. */
  readonly turn_timeout: number;
  readonly checks: readonly Check[];
  /**
   * Copied into the work tree by the host after the last turn, before the checks, replacing
   * what the agent left there (a mined task's tests); never mounted, never staged.
   */
  readonly check_files: readonly StagedPath[];
  /** A known-good answer as a patch (absolute host path): measured against, shown to the judge. */
  readonly reference?: string;
  /** Rules over the agent's final messages: the built-ins kept on, the set's, the eval's. */
  readonly message_checks: readonly MessageCheck[];
  /** The eval's own environment, else the eval set's; absent: the plain test image. */
  readonly environment?: EnvironmentImageSpec;
  /** The eval's services, else the eval set's; absent or empty: none (network none). */
  readonly services?: readonly ServiceDef[];
  /** Absolute path of the model script its runs play (claude-code), overriding `agent.model`. */
  readonly model_script?: string;
}

export interface Resources {
  readonly memory_bytes: number;
  readonly cpus: number;
  readonly pids: number;
  /** What a run may write (enforced when evalrig runs as root). */
  readonly disk_bytes: number;
}

export interface EvalSet {
  /** Absolute path of evals.json. */
  readonly file: string;
  /** Its folder (mounted read only in the container). */
  readonly dir: string;
  /** sha256 of the file's bytes. */
  readonly sha256: string;
  readonly name: string;
  readonly agent: AgentSpec;
  /** At least one; a set with none gets `default`. */
  readonly conditions: readonly Condition[];
  /**
   * The condition others are compared to: declared, else the first. In a matrix, the first
   * agent's baseline; each agent's conditions are compared with its own (matrix.base equal).
   */
  readonly baseline_condition: string;
  /**
   * name -> shell command run at each stop in the work tree. Two names mean
   * something: `kind` prints the stop's kind, `description` the pull-request
   * description the workflow expects at that moment.
   */
  readonly probes: Readonly<Record<string, string>>;
  /** Stop kinds that hand the work back to the human. */
  readonly hand_over: readonly string[];
  readonly resources: Resources;
  /** Owner of the repository as the gh stand-in shows it. */
  readonly repo_owner: string;
  /** The commit holding what evalrig placed on the codebase, as the agent sees it in git log. */
  readonly baseline_commit: BaselineCommit;
  /** Per run: reaching one ends the run as `limit_reached` (Inspect's token/message limits). */
  readonly limits: RunLimits;
  /** The campaign's budget in USD (list prices), agents and judge together; `--max-cost` wins. */
  readonly max_cost_usd?: number;
  /** The rate `--until-decided` tests after each round (a measure of benchmark.json); absent: the default. */
  readonly primary_measure?: string;
  /** The smallest difference in the primary measure's rate that matters (0 to 1). */
  readonly min_effect: number;
  /** Rules over each run's steps (what the agent ran and read), evaluated by the report. */
  readonly step_checks: readonly StepCheck[];
  /** What every gateway of the campaign shares per upstream; flags win. */
  readonly rate_limits: RateLimits;
  /** The model that grades expectations (and compares two conditions blind); absent: none. */
  readonly judge?: JudgeSpec;
  readonly evals: readonly Eval[];
}

/** The baseline commit's message and identity (author and committer alike), as written. */
export interface BaselineCommit {
  readonly message?: string;
  readonly author?: { readonly name: string; readonly email: string };
}

/** A run's limits, counted from what its model gateway witnessed. */
export interface RunLimits {
  /** Tokens billed (input, output, cache reads and writes). */
  readonly tokens?: number;
  /** USD at the price table's list prices. */
  readonly cost?: number;
  /** Calls sent to the model. */
  readonly model_requests?: number;
}

/** An upstream's limits, shared by the campaign's gateways. */
export interface RateLimits {
  readonly max_in_flight?: number;
  readonly requests_per_minute?: number;
  readonly tokens_per_minute?: number;
}

/** The judge of an eval set: its model, what it is shown, and an optional blind comparison. */
export interface JudgeSpec {
  /** A model script the stand-in plays (absolute path), or a Messages API and its key variable. */
  readonly model: ModelSpec;
  /** `messages` (Anthropic, x-api-key) or `responses` (OpenAI, bearer). */
  readonly api: 'messages' | 'responses';
  /** The model its requests name; part of the grading cache key. */
  readonly model_name: string;
  readonly max_diff_bytes: number;
  readonly max_transcript_bytes: number;
  readonly max_tokens: number;
  /** Two conditions compared blind, run by run. */
  readonly compare?: readonly [string, string];
}
