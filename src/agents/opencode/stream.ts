import { parseOpenCodeFamilyStream } from '../opencode-family/stream.js';
import type { TurnSummary } from '../stream.js';

/**
 * Parses the stream of one `opencode run --format json` turn (OpenCode 1.18): the family's
 * stream (see parseOpenCodeFamilyStream). Every tool error counts as failed: its suite saw no
 * call refused with `--auto`.
 */
export function parseOpenCodeStream(
  text: string,
  options: { maxLineBytes?: number } = {},
): TurnSummary {
  return parseOpenCodeFamilyStream(text, options);
}
