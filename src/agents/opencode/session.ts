import type { TurnSummary } from '../stream.js';
import { opencodeArgv } from './launch.js';
import { parseOpenCodeStream } from './stream.js';

/** One run's OpenCode session: OpenCode names it on the first turn, later turns continue it. */
export class OpenCodeSession {
  private session: string | null = null;

  constructor(
    readonly model: string,
    private readonly extraArgs: readonly string[] = [],
  ) {}

  get sessionId(): string | null {
    return this.session;
  }

  argv(prompt: string): string[] {
    return opencodeArgv({
      prompt,
      model: this.model,
      sessionId: this.session,
      extraArgs: this.extraArgs,
    });
  }

  take(stdout: string): TurnSummary {
    const summary = parseOpenCodeStream(stdout);
    // Only an id shaped like one is kept: it goes back into the next turn's argv.
    const id = summary.sessionId;
    if (this.session === null && id !== null && /^ses_[0-9A-Za-z]{1,80}$/u.test(id))
      this.session = id;
    return summary;
  }
}
