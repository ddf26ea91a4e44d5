import type { Sandbox } from '../../sandbox/index.js';
import type { TurnSummary } from '../stream.js';
import { newSessionId, playAgentTurn, type PlayedTurn, type TurnPlay } from '../turn.js';
import { claudeCodeArgv, claudeCodeEnv } from './launch.js';
import { parseClaudeCodeStream } from './stream.js';

/**
 * One run's session of the agent: evalrig chooses its id, the first turn names it and every
 * later turn resumes it; each turn's stream is parsed with the running cost carried over, so
 * each summary holds that turn's cost alone.
 *
 * ```ts
 * const session = new ClaudeCodeSession();
 * const r = await container.exec(session.argv(prompt), { env, timeoutMs, maxOutputBytes });
 * const summary = session.take(r.stdout); // then the next turn: session.argv(next) resumes
 * ```
 */
export class ClaudeCodeSession {
  private turns = 0;
  private sessionCost = 0;

  constructor(
    readonly id: string = newSessionId(),
    private readonly extraArgs: readonly string[] = [],
  ) {}

  /** argv of the next turn (the first names the session, later ones resume it). */
  argv(prompt: string): string[] {
    return claudeCodeArgv({
      prompt,
      sessionId: this.id,
      resume: this.turns > 0,
      extraArgs: this.extraArgs,
    });
  }

  /** Parses the turn just played and moves to the next. */
  take(stdout: string): TurnSummary {
    const summary = parseClaudeCodeStream(stdout, { previousSessionCostUsd: this.sessionCost });
    this.turns++;
    if (summary.sessionCostUsd !== null) this.sessionCost = summary.sessionCostUsd;
    return summary;
  }
}

/** The version a binary answers to `--version` ("2.1.332 (Claude Code)"), or null. */
export function parseVersionOutput(stdout: string): string | null {
  const m = /^(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)\b/.exec(stdout.trim());
  return m ? m[1]! : null;
}

/** A turn of Claude Code (see {@link playAgentTurn}). */
export function playClaudeCodeTurn(
  sandbox: Pick<Sandbox, 'exec'>,
  session: ClaudeCodeSession,
  turn: TurnPlay,
): Promise<PlayedTurn> {
  return playAgentTurn(sandbox, session, claudeCodeEnv(turn.home), turn);
}
