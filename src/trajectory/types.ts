import type { DiffCounters, ProbeOutput, PullAtStop, RunStatus } from '../artifacts/index.js';

/**
 * A run's trajectory: what the agent did, step by step, as the host recorded it. Its schema is
 * ./trajectory.schema.json (`evalrig/trajectory@1`). Every string in a step is the agent's or
 * the model's (untrusted): a page shows it as text, never as markup. Long texts are cut at
 * {@link TEXT_CAP} characters with a mark saying how much was left out.
 */
export interface Trajectory {
  readonly schema: 'evalrig/trajectory@1';
  readonly campaign: string;
  readonly eval: string;
  readonly condition: string;
  readonly run: number;
  readonly status: RunStatus;
  readonly error: string | null;
  /**
   * Where the steps come from: `gateway` (the model gateway's flight record: witnessed),
   * `output` (a command agent's stdout and stderr), `stream` (an adapter agent's own stream,
   * where no flight record was kept: a claim), `none` (nothing recorded).
   */
  readonly source: 'gateway' | 'output' | 'stream' | 'none';
  readonly started_at: string;
  readonly duration_ms: number;
  readonly steps: readonly Step[];
  /** Steps left out past the cap (the last stops are kept). */
  readonly steps_omitted: number;
  readonly totals: {
    readonly model_calls: number;
    readonly tool_calls: number;
    readonly gh_calls: number;
    readonly tokens_in: number;
    readonly tokens_out: number;
  };
  /** The run's checks, run after its last stop. */
  readonly checks: ReadonlyArray<{
    readonly name: string;
    readonly passed: boolean;
    readonly exit_code: number | null;
    readonly output: string;
  }>;
  /** Message checks, each stop they read linked to the step that said the message. */
  readonly message_checks: ReadonlyArray<{
    readonly name: string;
    readonly passed: boolean | null;
    readonly looked_at: ReadonlyArray<{
      readonly turn: number;
      readonly passed: boolean;
      readonly step: number | null;
    }>;
  }>;
  /** The judge's grading, each piece of evidence linked to the step it cites (or null). */
  readonly grading: {
    readonly status: 'graded' | 'error';
    readonly error: string | null;
    readonly expectations: ReadonlyArray<{
      readonly expectation: string;
      readonly passed: boolean | null;
      readonly evidence: string | null;
      readonly step: number | null;
    }>;
  } | null;
}

/** Token counts of one model call (null: not reported). */
export interface StepTokens {
  readonly input: number | null;
  readonly output: number | null;
  readonly cache_read: number | null;
  readonly cache_write: number | null;
}

interface StepBase {
  /** The step's index in `steps` (what links point at). */
  readonly i: number;
  /** The turn it belongs to (1, 2, …); the stop closing the turn has the same. */
  readonly turn: number;
  /** ISO time it began, when known. */
  readonly at: string | null;
  /** How long it took, when known (ms). */
  readonly duration_ms: number | null;
}

/** What was said to the model that it had not seen: a prompt, a message, a system text. */
export interface MessageStep extends StepBase {
  readonly kind: 'message';
  readonly role: string;
  readonly text: string;
  /** The model call whose request first carried it. */
  readonly call: number;
}

/** One model call: its answer's text and the tools it called. */
export interface ModelStep extends StepBase {
  readonly kind: 'model';
  readonly call: number;
  readonly model: string | null;
  readonly outcome: string;
  readonly reason: string | null;
  readonly status: number;
  /** A request that declares no tools: a side request of the agent (a title, a summary). */
  readonly side: boolean;
  readonly text: string | null;
  readonly tokens: StepTokens;
  /** The indices of the tool steps it asked for. */
  readonly tool_steps: readonly number[];
}

/** One tool call: its input, and its output as the agent sent it back to the model. */
export interface ToolStep extends StepBase {
  readonly kind: 'tool';
  readonly id: string | null;
  readonly name: string;
  readonly input: string;
  /** null: no later request carried its result (the turn ended, or the record stopped). */
  readonly output: string | null;
  /** Marked an error in the result; null when the API has no such mark or there is no result. */
  readonly is_error: boolean | null;
  /** The model call that asked for it. */
  readonly call: number;
}

/** One call to gh, from the host's gh record. */
export interface GhStep extends StepBase {
  readonly kind: 'gh';
  readonly seq: number;
  readonly args: string;
  readonly exit_code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly played: boolean;
  readonly marks_ready: boolean;
}

/** What a command agent printed in a turn, or an adapter's own stream where no record was kept. */
export interface OutputStep extends StepBase {
  readonly kind: 'output';
  readonly stream: 'stdout' | 'stderr' | 'transcript';
  readonly text: string;
}

/** The end of a turn: what the host measured at that stop. */
export interface StopStep extends StepBase {
  readonly kind: 'stop';
  readonly phase: string;
  readonly stop_kind: string | null;
  readonly hand_over: boolean;
  readonly exit_code: number | null;
  readonly branch: string | null;
  readonly head: string | null;
  readonly pull: PullAtStop | null;
  readonly diff: DiffCounters;
  /** The patch against the baseline at this stop (cut when long), or null when none was kept. */
  readonly patch: string | null;
  readonly probes: Readonly<Record<string, ProbeOutput>>;
  readonly final_message: string | null;
  /** The index of the step whose text is the final message, when found. */
  readonly final_step: number | null;
  /** The turn's witnessed figures and where the agent's stream disagreed with them. */
  readonly agent: {
    readonly model_requests: number;
    readonly tool_calls: number;
    readonly tokens_in: number;
    readonly tokens_out: number;
    readonly cost_usd: number | null;
    readonly disagreements: readonly string[];
  } | null;
}

export type Step = MessageStep | ModelStep | ToolStep | GhStep | OutputStep | StopStep;

export const TRAJECTORY_SCHEMA = 'evalrig/trajectory@1';
/** Each text of a step is kept to this many characters. */
export const TEXT_CAP = 64 * 1024;
/** A stop's patch is kept to this many characters. */
export const PATCH_CAP = 256 * 1024;
/** Steps kept per trajectory. */
export const MAX_STEPS = 20_000;
