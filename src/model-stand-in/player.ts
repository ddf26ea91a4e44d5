/**
 * Which scripted response answers a request: the first not played whose `when` the request's
 * text meets (a response without `when` meets every request). The stand-in plays through it,
 * and so does the dry run of a script against recorded requests: one rule, one owner.
 */
import type { ModelScript } from './script.js';

/** How a response was chosen: its `when` fitted, it was next in order, or none did. */
export type PickHow = 'when' | 'in_order' | 'fallback' | 'none';

/**
 * `fallback`: a response without `when` answered while responses with a `when` were left
 * unplayed, none fitting. A script written to answer by `when` (a judge's, one answer per
 * eval) then answers with its catch-all, which says nothing of the request: worth a warning.
 */
export interface Pick {
  /** The index in `responses`, or -1 when none is left that fits. */
  readonly index: number;
  readonly how: PickHow;
}

/** The script's responses, and which of them were played. */
export class ScriptPlayer {
  private readonly played: boolean[];
  /** Scripted responses not played yet. */
  left: number;

  constructor(readonly script: ModelScript) {
    this.played = new Array<boolean>(script.responses.length).fill(false);
    this.left = script.responses.length;
  }

  /** The response the request's text would get, not marked played. */
  pick(text: string): Pick {
    const responses = this.script.responses;
    const index = responses.findIndex(
      (r, i) => !this.played[i] && (r.when?.contains.every((s) => text.includes(s)) ?? true),
    );
    if (index < 0) return { index, how: 'none' };
    if (responses[index]!.when) return { index, how: 'when' };
    const waiting = responses.some((r, i) => !this.played[i] && r.when !== undefined);
    return { index, how: waiting ? 'fallback' : 'in_order' };
  }

  markPlayed(index: number): void {
    this.played[index] = true;
    this.left--;
  }
}

/**
 * The text a `when` is matched against: every string of the request's JSON (system prompt,
 * messages, tool results) joined by newlines, as written before JSON escaping. Walked without
 * recursion: the body is the client's, however deep. A body that is not JSON is its own text.
 */
export function requestText(body: Buffer | unknown): string {
  let value: unknown = body;
  if (Buffer.isBuffer(body)) {
    try {
      value = JSON.parse(body.toString('utf8'));
    } catch {
      return body.toString('utf8');
    }
  }
  const out: string[] = [];
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') out.push(v);
    else if (typeof v === 'object' && v !== null) {
      const items = Array.isArray(v) ? (v as unknown[]) : Object.values(v);
      for (let i = items.length - 1; i >= 0; i--) stack.push(items[i]);
    }
  }
  return out.join('\n');
}
