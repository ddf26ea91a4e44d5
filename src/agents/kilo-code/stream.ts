import { parseOpenCodeFamilyStream } from '../opencode-family/stream.js';
import type { TurnSummary } from '../stream.js';
import { KILO_CODE_REFUSALS } from './loading.js';

/**
 * Parses the stream of one `kilo run --format json` turn (Kilo Code 7.7): OpenCode's stream
 * (see parseOpenCodeFamilyStream), its lines and fields unchanged. A call its permission rules
 * denied is a `tool_use` of status error whose `state.error` is its refusal: refused, not failed.
 */
export function parseKiloStream(
  text: string,
  options: { maxLineBytes?: number } = {},
): TurnSummary {
  return parseOpenCodeFamilyStream(text, { ...options, refusals: KILO_CODE_REFUSALS });
}
