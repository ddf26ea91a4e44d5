import type { TurnSummary } from '../stream.js';
import { factoryDroidArgv } from './launch.js';
import { parseFactoryDroidStream } from './stream.js';

/** A session id as Factory Droid writes them (a UUID): only such an id goes back into argv. */
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/u;

/**
 * One run's Factory Droid session: it names a session each turn; every turn after the first
 * forks the one the turn before named, so the conversation goes on (its id changes each turn).
 */
export class FactoryDroidSession {
  private session: string | null = null;

  constructor(
    readonly model: string,
    private readonly extraArgs: readonly string[] = [],
  ) {}

  /** The session the last turn named (the one the next turn forks), or null before any. */
  get sessionId(): string | null {
    return this.session;
  }

  argv(prompt: string): string[] {
    return factoryDroidArgv({
      prompt,
      model: this.model,
      forkOf: this.session,
      extraArgs: this.extraArgs,
    });
  }

  take(stdout: string): TurnSummary {
    const summary = parseFactoryDroidStream(stdout);
    const id = summary.sessionId;
    if (id !== null && SESSION_ID.test(id)) this.session = id;
    return summary;
  }
}
