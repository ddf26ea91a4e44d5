import type { RunRecord, RunStatus, StopRecord } from '../artifacts/index.js';
import { finalMessageOf } from '../measure/index.js';

const MAX_MESSAGE_CHARS = 400;

function finalMessage(stop: StopRecord): string | null {
  const message = finalMessageOf(stop);
  return message === null ? null : clip(message, MAX_MESSAGE_CHARS);
}

/** What the page shows of one gh call. */
export interface CallLine {
  readonly args: string;
  readonly exit_code: number;
  readonly played: boolean;
  readonly marks_ready: boolean;
}

/** What the page shows of one stop; null pull: the branch had no pull request then. */
export interface StopLine {
  readonly turn: number;
  readonly phase: string;
  readonly kind: string | null;
  readonly hand_over: boolean;
  readonly pull: {
    readonly number: number;
    readonly draft: boolean;
    readonly described: boolean | null;
    readonly state: string;
  } | null;
  readonly calls: readonly CallLine[];
  /** Calls at this stop, when more than `calls` shows. */
  readonly calls_total: number;
  /** The stop file run.json names could not be found. */
  readonly missing?: true;
  /** What the agent said last in the turn (clipped). */
  readonly final_message?: string | null;
  /** An adapter agent's turn, as its transcript said. */
  readonly agent?: {
    readonly tool_calls: number;
    readonly tool_calls_failed: number;
    /** Tool calls the agent itself refused to run (0 in records that did not count them). */
    readonly tool_calls_refused: number;
    readonly model_requests: number;
    readonly tokens_in: number;
    readonly tokens_out: number;
    readonly cost_usd: number | null;
    readonly error: string | null;
    readonly final_message: string | null;
  };
}

/** One run's line in the page: small, whatever the size of its stop files. */
export interface RunTimeline {
  readonly eval: string;
  readonly condition: string;
  readonly run: number;
  readonly status: RunStatus;
  readonly error?: string;
  readonly stopped_at_hand_over: boolean;
  readonly stops: readonly StopLine[];
  /** The run's files that exist, relative to the campaign folder ('/'-separated). */
  readonly files: ReadonlyArray<{ readonly label: string; readonly path: string }>;
  /** Each message check of the run: passed, failed, or null (nothing to look at). */
  readonly message_checks: ReadonlyArray<{
    readonly name: string;
    readonly passed: boolean | null;
  }>;
}

const MAX_CALLS_SHOWN = 12;
const MAX_ARGS_CHARS = 120;

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Keeps of a run and its stops only what the timeline shows (bodies, outputs and probes are dropped). */
export function toTimeline(
  run: RunRecord,
  stops: ReadonlyArray<StopRecord | null>,
  files: RunTimeline['files'] = [],
): RunTimeline {
  return {
    files,
    eval: run.eval,
    condition: run.condition,
    run: run.run,
    status: run.status,
    ...(run.error === undefined ? {} : { error: clip(run.error, 300) }),
    stopped_at_hand_over: run.stopped_at_hand_over,
    message_checks: (run.message_checks ?? []).map((c) => ({ name: c.name, passed: c.passed })),
    stops: stops.map((stop, i): StopLine => {
      if (stop === null) {
        return {
          turn: i + 1,
          phase: '',
          kind: null,
          hand_over: false,
          pull: null,
          calls: [],
          calls_total: 0,
          missing: true,
        };
      }
      return {
        turn: stop.turn,
        phase: stop.phase,
        kind: stop.kind,
        hand_over: stop.hand_over,
        pull:
          stop.pull === null
            ? null
            : {
                number: stop.pull.number,
                draft: stop.pull.draft,
                described: stop.pull.described,
                state: stop.pull.state,
              },
        calls: stop.calls.slice(0, MAX_CALLS_SHOWN).map((c) => ({
          args: clip(['gh', ...c.argv].join(' '), MAX_ARGS_CHARS),
          exit_code: c.exit_code,
          played: c.played,
          marks_ready: c.marks_ready,
        })),
        calls_total: stop.calls.length,
        final_message: finalMessage(stop),
        ...(stop.agent
          ? {
              agent: {
                tool_calls: stop.agent.tool_calls.total,
                tool_calls_failed: stop.agent.tool_calls.failed,
                tool_calls_refused: stop.agent.tool_calls.refused ?? 0,
                model_requests: stop.agent.model_requests,
                tokens_in: stop.agent.tokens.input,
                tokens_out: stop.agent.tokens.output,
                cost_usd: stop.agent.cost_usd,
                error: stop.agent.error === null ? null : clip(stop.agent.error, 300),
                final_message:
                  stop.agent.final_message === null ? null : clip(stop.agent.final_message, 300),
              },
            }
          : {}),
      };
    }),
  };
}
