import type { TurnSummary } from '../stream.js';
import { newSessionId } from '../turn.js';
import { qwenCodeArgv } from './launch.js';
import { parseQwenStream, ZERO_TOKENS } from './stream.js';

/** One run's Qwen Code session; its running usage carried so each turn holds its own tokens. */
export class QwenCodeSession {
  private turns = 0;
  private running = ZERO_TOKENS;

  constructor(
    readonly model: string,
    private readonly extraArgs: readonly string[] = [],
    readonly id: string = newSessionId(),
  ) {}

  argv(prompt: string): string[] {
    return qwenCodeArgv({
      prompt,
      model: this.model,
      sessionId: this.id,
      resume: this.turns > 0,
      extraArgs: this.extraArgs,
    });
  }

  take(stdout: string): TurnSummary {
    this.turns++;
    const { summary, running } = parseQwenStream(stdout, this.running);
    this.running = running;
    return summary;
  }
}
