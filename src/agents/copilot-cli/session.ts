import type { TurnSummary } from '../stream.js';
import { newSessionId } from '../turn.js';
import { copilotArgv } from './launch.js';
import { parseCopilotStream } from './stream.js';

/** One run's Copilot CLI session: evalrig chooses its id, later turns resume it. */
export class CopilotCliSession {
  private turns = 0;

  constructor(
    private readonly extraArgs: readonly string[] = [],
    readonly id: string = newSessionId(),
  ) {}

  argv(prompt: string): string[] {
    return copilotArgv({
      prompt,
      sessionId: this.id,
      resume: this.turns > 0,
      extraArgs: this.extraArgs,
    });
  }

  take(stdout: string): TurnSummary {
    this.turns++;
    return parseCopilotStream(stdout);
  }
}
