import type { TurnSummary } from '../stream.js';
import { clineArgv } from './launch.js';
import { parseClineStream } from './stream.js';

/**
 * A session id as Cline names them (`<ms>_<5 random URL-safe chars>_cli`, `-` and `_` among
 * them): only such an id goes back into argv.
 */
const SESSION_ID = /^[0-9]{10,16}_[0-9A-Za-z_-]{1,16}$/u;

/** One run's Cline session: the first turn opens it, every later one loads it and goes on. */
export class ClineSession {
  private session: string | null = null;

  constructor(
    readonly model: string,
    private readonly extraArgs: readonly string[] = [],
  ) {}

  /** The session the last turn named, or null before any. */
  get sessionId(): string | null {
    return this.session;
  }

  argv(prompt: string): string[] {
    return clineArgv({
      prompt,
      model: this.model,
      resume: this.session,
      extraArgs: this.extraArgs,
    });
  }

  take(stdout: string): TurnSummary {
    const summary = parseClineStream(stdout);
    const id = summary.sessionId;
    if (id !== null && SESSION_ID.test(id)) this.session = id;
    return summary;
  }
}
