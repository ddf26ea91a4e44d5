import type { Sandbox } from '../../sandbox/index.js';
import type { TurnSummary } from '../stream.js';
import { playAgentTurn, type PlayedTurn, type TurnPlay } from '../turn.js';
import { codexArgv, codexEnv } from './launch.js';
import { parseCodexStream, ZERO_CODEX_USAGE, type CodexUsage } from './stream.js';

/**
 * One run's Codex thread: the first turn starts it and Codex names it (`thread.started`);
 * every later turn resumes it by that id. Each turn's running usage is carried over, so each
 * summary holds that turn's tokens and cost alone.
 *
 * ```ts
 * const session = new CodexSession('gpt-5.1-codex');
 * const r = await container.exec(session.argv(prompt), { env: codexEnv(home), … });
 * const summary = session.take(r.stdout); // then session.argv(next) resumes the thread
 * ```
 */
export class CodexSession {
  private thread: string | null = null;
  private usage: CodexUsage = ZERO_CODEX_USAGE;

  constructor(
    readonly model: string,
    private readonly extraArgs: readonly string[] = [],
  ) {}

  /** The thread Codex named on the first turn, or null before it. */
  get threadId(): string | null {
    return this.thread;
  }

  /** argv of the next turn: a new thread first, then `exec resume` of it. */
  argv(prompt: string): string[] {
    return codexArgv({
      prompt,
      model: this.model,
      threadId: this.thread,
      extraArgs: this.extraArgs,
    });
  }

  /** Parses the turn just played; keeps the thread id it reported and its running usage. */
  take(stdout: string): TurnSummary {
    const turn = parseCodexStream(stdout, { previous: this.usage, model: this.model });
    this.usage = turn.usage;
    // Only an id shaped like one is kept: it goes back into the next turn's argv.
    const id = turn.summary.sessionId;
    if (this.thread === null && id !== null && /^[0-9A-Za-z-]{1,100}$/.test(id)) this.thread = id;
    return turn.summary;
  }
}

/** A turn of Codex, through the relay (see playAgentTurn). */
export function playCodexTurn(
  sandbox: Pick<Sandbox, 'exec'>,
  session: CodexSession,
  turn: TurnPlay,
): Promise<PlayedTurn> {
  return playAgentTurn(sandbox, session, codexEnv(turn.home), turn);
}
