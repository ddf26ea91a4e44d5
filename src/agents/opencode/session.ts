import { FamilySession } from '../opencode-family/launch.js';
import { OPENCODE_FAMILY } from './launch.js';
import { parseOpenCodeStream } from './stream.js';

/** One run's OpenCode session: OpenCode names it on the first turn, later turns continue it. */
export class OpenCodeSession extends FamilySession {
  constructor(model: string, extraArgs: readonly string[] = []) {
    super(OPENCODE_FAMILY, (stdout) => parseOpenCodeStream(stdout), model, extraArgs);
  }
}
