/**
 * What a command's output holds for a terminal, taken out before a page shows it. Pure text
 * work, no Node module: the viewer's client bundles it as the report does.
 */

/** Terminal escapes (colours, cursor moves, titles): what an agent's output holds for a TTY. */
// eslint-disable-next-line no-control-regex -- these control characters are what it matches.
const ANSI = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)|[@-Z\\-_])/gu;

/** A text as a page shows it: terminal escapes taken out, never shown as raw ESC glyphs. */
export function withoutEscapes(text: string): string {
  return text.includes('\u001b') ? text.replace(ANSI, '') : text;
}
