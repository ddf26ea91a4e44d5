import { FamilySession } from '../opencode-family/launch.js';
import { KILO_CODE_FAMILY } from './launch.js';
import { parseKiloStream } from './stream.js';

/** One run's Kilo Code session: it names it on the first turn, later turns continue it. */
export class KiloCodeSession extends FamilySession {
  constructor(model: string, extraArgs: readonly string[] = []) {
    super(KILO_CODE_FAMILY, (stdout) => parseKiloStream(stdout), model, extraArgs);
  }
}
