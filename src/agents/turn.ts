import { randomUUID } from 'node:crypto';
import type { ExecResult, Sandbox } from '../sandbox/index.js';
import { markTruncated, type TurnSummary } from './stream.js';

/** One played turn: what the exec returned, the transcript to keep, and what it says. */
export interface PlayedTurn {
  readonly exec: ExecResult;
  /** turns/turn-NN.jsonl: the whole stream, or its head and a visible mark when cut. */
  readonly transcript: string;
  readonly summary: TurnSummary;
}

/** What a turn is played with: an adapter's session, and the adapter's own environment. */
export interface TurnSession {
  argv(prompt: string): string[];
  take(transcript: string): TurnSummary;
}

/** A session id evalrig chooses for a run, so every turn after the first resumes it. */
export function newSessionId(): string {
  return randomUUID();
}

/** The turn to play and where. */
export interface TurnPlay {
  readonly prompt: string;
  readonly home: string;
  readonly workingDir: string;
  readonly timeoutMs: number;
  /** Time not charged to `timeoutMs` (the turn's calls queued behind the upstream's limits). */
  readonly extraMs?: () => number;
  readonly maxTranscriptBytes: number;
  readonly env?: Readonly<Record<string, string>>;
}

/**
 * Plays the session's next turn in the run's sandbox (one exec; the first names the
 * session, later ones resume it) and parses its stream. `env` adds the run's own variables
 * (git identity, the condition's env); the adapter's (`adapterEnv`: gateway, placeholder
 * key) win.
 */
export async function playAgentTurn(
  sandbox: Pick<Sandbox, 'exec'>,
  session: TurnSession,
  adapterEnv: Readonly<Record<string, string>>,
  turn: TurnPlay,
): Promise<PlayedTurn> {
  const exec = await sandbox.exec(session.argv(turn.prompt), {
    workingDir: turn.workingDir,
    env: { ...turn.env, ...adapterEnv },
    timeoutMs: turn.timeoutMs,
    ...(turn.extraMs ? { extraMs: turn.extraMs } : {}),
    maxOutputBytes: turn.maxTranscriptBytes,
  });
  const transcript = exec.truncated
    ? markTruncated(exec.stdout, turn.maxTranscriptBytes)
    : exec.stdout;
  return { exec, transcript, summary: session.take(transcript) };
}
