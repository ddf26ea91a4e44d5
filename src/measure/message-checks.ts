import type { MessageCheckResult, StopRecord } from '../artifacts/index.js';
import type { MessageCheck, MessageRule } from '../config/index.js';

/** A final message is kept up to this many characters (then cut with a visible mark). */
export const MAX_FINAL_MESSAGE_CHARS = 16_000;

/** Cuts an untrusted message to the cap, saying so. */
export function capMessage(text: string): string {
  if (text.length <= MAX_FINAL_MESSAGE_CHARS) return text;
  return `${text.slice(0, MAX_FINAL_MESSAGE_CHARS)}\n[evalrig: message cut at ${MAX_FINAL_MESSAGE_CHARS} characters]`;
}

/**
 * A command agent's final message: the last non-empty paragraph of its
 * stdout for the turn (paragraphs are separated by blank lines), capped. null
 * when stdout holds nothing but blanks, or when it was cut at its cap (its
 * end, where the last paragraph is, was lost).
 *
 * @example
 * commandFinalMessage('working...\n\nOpened draft PR #1.\nReady for review.\n', false);
 * // 'Opened draft PR #1.\nReady for review.'
 */
export function commandFinalMessage(stdout: string, cut: boolean): string | null {
  if (cut) return null;
  const paragraphs = stdout
    .replace(/\r\n?/gu, '\n')
    .split(/\n[ \t]*\n/u)
    .map((p) => p.trim())
    .filter((p) => p !== '');
  const last = paragraphs.at(-1);
  return last === undefined ? null : capMessage(last);
}

/** What the agent said last at a stop: the stop's own field, else (older stops) the adapter's. */
export function finalMessageOf(stop: StopRecord): string | null {
  if (stop.final_message !== undefined) return stop.final_message;
  return stop.agent?.final_message ?? null;
}

/** Whether one message holds a rule. */
export function holds(rule: MessageRule, message: string): boolean {
  if ('contains' in rule) return message.includes(rule.contains);
  if ('not_contains' in rule) return !message.includes(rule.not_contains);
  if ('matches' in rule) return new RegExp(rule.matches, rule.flags ?? '').test(message);
  return !new RegExp(rule.not_matches, rule.flags ?? '').test(message);
}

/** The stops a check reads, in turn order. */
function stopsOf(check: MessageCheck, stops: readonly StopRecord[]): readonly StopRecord[] {
  if (check.stops === 'hand_over') return stops.filter((s) => s.hand_over);
  if (check.stops === 'last') return stops.slice(-1);
  return stops;
}

/**
 * Each message check over a run's stops: it passes when every final message
 * it looks at holds its rule; null when there is nothing to look at (no stop
 * of its kind, or no message at them), never false.
 *
 * @example
 * runMessageChecks([{ name: 'says_draft', stops: 'hand_over', rule: { contains: 'draft' } }], stops);
 * // [{ name: 'says_draft', stops: 'hand_over', rule: { contains: 'draft' }, passed: true,
 * //    looked_at: [{ turn: 1, passed: true }] }]
 */
export function runMessageChecks(
  checks: readonly MessageCheck[],
  stops: readonly StopRecord[],
): MessageCheckResult[] {
  return checks.map((check) => {
    const looked_at: Array<{ turn: number; passed: boolean }> = [];
    for (const stop of stopsOf(check, stops)) {
      const message = finalMessageOf(stop);
      if (message === null) continue;
      looked_at.push({ turn: stop.turn, passed: holds(check.rule, message) });
    }
    return {
      name: check.name,
      stops: check.stops,
      rule: { ...check.rule } as Record<string, string>,
      passed: looked_at.length === 0 ? null : looked_at.every((l) => l.passed),
      looked_at,
    };
  });
}
