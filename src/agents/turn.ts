import type { ExecResult, RunContainer } from '../runtime/index.js';
import { claudeCodeEnv } from './claude-code.js';
import type { ClaudeCodeSession } from './session.js';
import { markTruncated, type TurnSummary } from './transcript.js';

/** One played turn: what the exec returned, the transcript to keep, and what it says. */
export interface PlayedTurn {
  readonly exec: ExecResult;
  /** turns/turn-NN.jsonl: the whole stream, or its head and a visible mark when cut. */
  readonly transcript: string;
  readonly summary: TurnSummary;
}

/**
 * Plays the session's next turn in the run's container (one exec; the first names the
 * session, later ones resume it) and parses its stream. `env` adds the run's own variables
 * (git identity, the condition's env); the adapter's (gateway socket, placeholder key) win.
 */
export async function playClaudeCodeTurn(
  container: RunContainer,
  session: ClaudeCodeSession,
  turn: {
    readonly prompt: string;
    readonly home: string;
    readonly workingDir: string;
    readonly timeoutMs: number;
    readonly maxTranscriptBytes: number;
    readonly env?: Readonly<Record<string, string>>;
  },
): Promise<PlayedTurn> {
  const exec = await container.exec(session.argv(turn.prompt), {
    workingDir: turn.workingDir,
    env: { ...turn.env, ...claudeCodeEnv(turn.home) },
    timeoutMs: turn.timeoutMs,
    maxOutputBytes: turn.maxTranscriptBytes,
  });
  const transcript = exec.truncated
    ? markTruncated(exec.stdout, turn.maxTranscriptBytes)
    : exec.stdout;
  return { exec, transcript, summary: session.take(transcript) };
}
