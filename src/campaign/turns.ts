import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { playAgentTurn, type TurnSummary } from '../agents/index.js';
import type { TurnAgentRecord } from '../artifacts/index.js';
import { agentOf, type EvalSet } from '../config/index.js';
import type { ExecResult, Sandbox } from '../sandbox/index.js';
import type { CampaignAgent } from './agent.js';
import { CONTAINER, transcriptName, turnOutputName, type RunLayout } from './layout.js';
import type { PlannedRun } from './plan.js';

/** An adapter agent's stream of one turn is kept up to this by default (then cut, marked). */
const TRANSCRIPT_CAP = 16 * 1024 * 1024;

/** One turn of a run, whatever plays it: the exec, and an adapter's stream parsed (its claim). */
export interface PlayedRunTurn {
  readonly exec: ExecResult;
  /**
   * An adapter agent's stream, parsed, and where it is kept (relative to the run folder);
   * absent for a command agent. The stop puts it beside what the gateway witnessed.
   */
  readonly claim?: { readonly summary: TurnSummary; readonly transcript: string };
}

/** The turn to play: its number (1-based), the user's message, its phase and time bound. */
export interface TurnRequest {
  readonly n: number;
  readonly message: string;
  readonly phase: string;
  readonly timeoutMs: number;
  /** Time not charged to `timeoutMs`: the turn's model calls queued behind the upstream's limits. */
  readonly extraMs?: () => number;
}

/** Plays one turn of a run in its sandbox and keeps its output under turns/. */
export type TurnPlayer = (turn: TurnRequest) => Promise<PlayedRunTurn>;

/** What a run's turns are played with. */
export interface TurnPlayerContext {
  readonly evalSet: EvalSet;
  readonly agent?: CampaignAgent;
  readonly planned: PlannedRun;
  readonly layout: RunLayout;
  readonly sandbox: Pick<Sandbox, 'exec'>;
  readonly containerWorkTree: string;
  readonly home: string;
  /** A command agent's stdout and stderr are each kept up to this per turn. */
  readonly maxOutputBytes: number;
  readonly maxTranscriptBytes?: number;
}

/**
 * The run's turn player: an adapter agent's session (one per run; every turn after the first
 * resumes it; its stream kept as turns/turn-NN.jsonl), or the eval set's command (its output
 * kept as turns/turn-NN.{stdout,stderr}.txt). Either sees the condition's env and the host
 * variables agent.env passes through.
 */
export function turnPlayer(t: TurnPlayerContext): TurnPlayer {
  const { evalSet, planned } = t;
  const spec = agentOf(evalSet, planned.condition);
  const passThrough: Record<string, string> = {};
  for (const name of spec.env) {
    const value = process.env[name];
    if (value !== undefined) passThrough[name] = value;
  }
  const runEnv = (turn: TurnRequest) => ({
    EVALRIG_TURN: String(turn.n),
    EVALRIG_PHASE: turn.phase,
    ...planned.condition.env,
    ...passThrough,
  });
  const agent = t.agent;
  if (agent) {
    const session = agent.session(planned);
    const cap = t.maxTranscriptBytes ?? TRANSCRIPT_CAP;
    return async (turn) => {
      const played = await playAgentTurn(
        t.sandbox,
        session,
        agent.adapter.env(t.home, agent.identity.model),
        {
          prompt: turn.message,
          home: t.home,
          workingDir: t.containerWorkTree,
          timeoutMs: turn.timeoutMs,
          ...(turn.extraMs ? { extraMs: turn.extraMs } : {}),
          maxTranscriptBytes: cap,
          env: runEnv(turn),
        },
      );
      await writeTranscript(t.layout, turn.n, played.transcript, played.exec, cap);
      const transcript = `turns/${transcriptName(turn.n)}`;
      return { exec: played.exec, claim: { summary: played.summary, transcript } };
    };
  }
  return async (turn) => {
    const template = turn.n === 1 ? spec.command : spec.resume_command;
    const values = placeholderValues(planned, turn);
    const argv = [...template, ...planned.condition.agent_args].map((a) =>
      fillPlaceholders(a, values),
    );
    const exec = await t.sandbox.exec(argv, {
      workingDir: t.containerWorkTree,
      env: { HOME: t.home, EVALRIG_PROMPT: turn.message, ...runEnv(turn) },
      timeoutMs: turn.timeoutMs,
      maxOutputBytes: t.maxOutputBytes,
    });
    await writeTurnOutput(t.layout, turn.n, exec, t.maxOutputBytes);
    return { exec };
  };
}

/**
 * Why a finished turn is no real turn, or undefined: an agent that could not start (126, 127),
 * exited non-zero, reported its own error or never finished its stream. The run then failed in
 * the agent: its stop is kept, nothing further is played.
 */
export function whyAgentFailed(turn: {
  readonly exec: ExecResult;
  readonly agent?: TurnAgentRecord;
}): string | undefined {
  const r = turn.exec;
  const cannotStart = r.exitCode === 126 || r.exitCode === 127;
  // The engine says why a program could not start on stdout, a command agent may too; an
  // adapter's stdout is its stream, not a reason.
  const out = cannotStart || !turn.agent ? r.stdout.trim() : '';
  const said = (turn.agent?.error ?? (r.stderr.trim() || out).slice(-300)) || 'nothing';
  if (cannotStart) {
    return `the agent could not start (exit ${r.exitCode}: ${said})`;
  }
  if (r.exitCode !== 0) return `the agent exited ${r.exitCode} (${said})`;
  if (!turn.agent) return undefined;
  if (turn.agent.error !== null) return `the agent reported an error: ${turn.agent.error}`;
  if (!turn.agent.complete) return 'the agent ended without its final result line';
  return undefined;
}

/**
 * The values of a command agent's placeholders for a run (and a turn: without one, {prompt},
 * {turn} and {phase} stay as written).
 */
export function placeholderValues(planned: PlannedRun, turn?: TurnRequest): Record<string, string> {
  return {
    ...(turn ? { prompt: turn.message, turn: String(turn.n), phase: turn.phase } : {}),
    eval: planned.eval.id,
    condition: planned.condition.name,
    run: String(planned.run),
    eval_set_dir: CONTAINER.evalSetDir,
  };
}

/** `arg` with its known placeholders filled; an unknown one stays as written. */
export function fillPlaceholders(arg: string, values: Record<string, string>): string {
  return arg.replace(/\{(\w+)\}/gu, (whole, name: string) => values[name] ?? whole);
}

/** The visible mark at the end of output cut at its cap. */
export function truncationMark(bytes: number): string {
  return `\n[evalrig: output truncated at ${bytes} bytes]\n`;
}

async function writeTurnOutput(
  layout: RunLayout,
  turn: number,
  r: ExecResult,
  cap: number,
): Promise<void> {
  await mkdir(layout.turnsDir, { recursive: true });
  for (const stream of ['stdout', 'stderr'] as const) {
    const text = r[stream];
    const cut = r.truncated && Buffer.byteLength(text) >= cap;
    await writeFile(
      path.join(layout.turnsDir, turnOutputName(turn, stream)),
      cut ? text + truncationMark(cap) : text,
    );
  }
}

/**
 * Keeps an adapter agent's turn: its stream (already cut with a visible mark at its cap) as
 * turns/turn-NN.jsonl, and its stderr as turns/turn-NN.stderr.txt.
 */
async function writeTranscript(
  layout: RunLayout,
  turn: number,
  transcript: string,
  r: ExecResult,
  cap: number,
): Promise<void> {
  await mkdir(layout.turnsDir, { recursive: true });
  await writeFile(path.join(layout.turnsDir, transcriptName(turn)), transcript);
  const cut = r.truncated && Buffer.byteLength(r.stderr) >= cap;
  await writeFile(
    path.join(layout.turnsDir, turnOutputName(turn, 'stderr')),
    cut ? r.stderr + truncationMark(cap) : r.stderr,
  );
}
