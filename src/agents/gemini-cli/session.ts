import type { TurnSummary } from '../stream.js';
import { newSessionId } from '../turn.js';
import { geminiCliArgv } from './launch.js';
import { parseGeminiStream } from './stream.js';

/** One run's Gemini CLI session: evalrig chooses its id, later turns resume it. */
export class GeminiCliSession {
  private turns = 0;

  constructor(
    readonly model: string,
    private readonly extraArgs: readonly string[] = [],
    readonly id: string = newSessionId(),
  ) {}

  argv(prompt: string): string[] {
    const resume = this.turns > 0;
    return geminiCliArgv({
      prompt,
      model: this.model,
      sessionId: this.id,
      resume,
      extraArgs: this.extraArgs,
    });
  }

  take(stdout: string): TurnSummary {
    this.turns++;
    return parseGeminiStream(stdout);
  }
}
