import { SseSplitter, parseObject } from './sse.js';
import {
  INPUT_CAP,
  MAX_JSON_BYTES,
  MAX_TOOL_CALLS,
  NAME_CAP,
  NO_TOKENS,
  RESULT_TEXT_CAP,
  TEXT_CAP,
  type ResponseFacts,
  type ResponseReader,
} from './types.js';

export type Obj = Record<string, unknown>;

export const isObj = (v: unknown): v is Obj =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A token count the upstream reported, or null. */
export function count(v: unknown): number | null {
  return Number.isSafeInteger(v) && (v as number) >= 0 ? (v as number) : null;
}

export function str(v: unknown, cap: number = NAME_CAP): string | null {
  return typeof v === 'string' ? v.slice(0, cap) : null;
}

/**
 * The start of a tool result as the agent sent it back: a string, text blocks joined, or any
 * other value as JSON (Gemini's `response` object), capped at {@link RESULT_TEXT_CAP}.
 */
export function resultText(v: unknown): string {
  if (typeof v === 'string') return v.slice(0, RESULT_TEXT_CAP);
  if (Array.isArray(v)) {
    const texts = v
      .slice(0, 100)
      .flatMap((b) => (isObj(b) && typeof b.text === 'string' ? [b.text] : []));
    if (texts.length > 0) return texts.join('\n').slice(0, RESULT_TEXT_CAP);
  }
  return v === undefined ? '' : (JSON.stringify(v) ?? '').slice(0, RESULT_TEXT_CAP);
}

/** `a - b`, never below 0; null when `a` is unknown. */
export function minus(a: number | null, b: number | null): number | null {
  return a === null ? null : Math.max(0, a - (b ?? 0));
}

/**
 * What every wire reader shares: the body read as server-sent events (each event's JSON handed
 * to `event`) or, for any other content type, kept up to {@link MAX_JSON_BYTES} and handed to
 * `json` at its end. Facts are filled in `this.facts`; texts and tool calls through the capped
 * helpers below.
 */
export abstract class WireReader implements ResponseReader {
  readonly facts: ResponseFacts = {
    outcome: 'complete',
    reason: null,
    id: null,
    model: null,
    stopReason: null,
    tokens: { ...NO_TOKENS },
    texts: [],
    toolCalls: [],
  };
  private readonly sse: SseSplitter | null;
  private body: Buffer[] = [];
  private bodyBytes = 0;
  private tooBig = false;
  private textChars = 0;

  constructor(
    protected readonly status: number,
    contentType: string,
  ) {
    const streamed = contentType.toLowerCase().startsWith('text/event-stream');
    this.sse = streamed
      ? new SseSplitter((name, data) => {
          const v = parseObject(data);
          if (v) this.event(name, v);
        })
      : null;
  }

  push(chunk: Buffer): void {
    if (this.sse) return this.sse.push(chunk);
    if (this.tooBig) return;
    this.bodyBytes += chunk.length;
    if (this.bodyBytes > MAX_JSON_BYTES) {
      this.tooBig = true;
      this.body = [];
      return;
    }
    this.body.push(chunk);
  }

  end(cut?: string): ResponseFacts {
    if (this.sse) this.sse.end();
    else {
      const v = this.tooBig ? null : parseObject(Buffer.concat(this.body).toString('utf8'));
      this.body = [];
      if (this.status >= 400) this.error(v);
      else if (v) this.json(v);
    }
    this.finish(cut);
    return this.facts;
  }

  /** One streamed event (its `type` is the event's, in the JSON or the `event:` line). */
  protected abstract event(name: string, data: Obj): void;
  /** A whole (not streamed) answer. */
  protected abstract json(body: Obj): void;
  /** The body ended: settle the outcome (`cut`: the gateway's reason, when it cut). */
  protected abstract finish(cut: string | undefined): void;

  /**
   * The end of a body whose API marks its last event: cut by an error event the stream carried
   * (`streamError`), or cut because the terminal mark never came (`noAnswer` when not even the
   * answer's id arrived, `noEnd` otherwise; `cut` names a lost stream). An error answer stays one.
   */
  protected settle(
    cut: string | undefined,
    streamError: string | null,
    ended: boolean,
    why: { readonly noAnswer: string; readonly noEnd: string },
  ): void {
    if (this.facts.outcome === 'error') return;
    if (streamError !== null) {
      this.facts.outcome = 'cut';
      this.facts.reason = streamError;
    } else if (!ended) {
      this.facts.outcome = 'cut';
      this.facts.reason = cut ?? (this.facts.id === null ? why.noAnswer : why.noEnd);
    }
  }

  /** An HTTP error answer: its type from the API's error body. */
  protected error(body: Obj | null): void {
    this.facts.outcome = 'error';
    const e = isObj(body?.error) ? body.error : undefined;
    this.facts.reason = str(e?.type) ?? str(e?.code) ?? `http_${this.status}`;
  }

  protected text(value: unknown): void {
    const t = str(value, TEXT_CAP);
    if (t === null || this.textChars >= 2 * TEXT_CAP) return;
    this.textChars += t.length;
    this.facts.texts.push(t);
  }

  /** Appends to the last text block (a streamed delta), within the caps. */
  protected appendText(value: unknown): void {
    const t = str(value, TEXT_CAP);
    const texts = this.facts.texts;
    if (t === null || texts.length === 0 || this.textChars >= 2 * TEXT_CAP) return;
    const last = texts[texts.length - 1]!;
    const room = TEXT_CAP - last.length;
    if (room <= 0) return;
    const add = t.slice(0, room);
    texts[texts.length - 1] = last + add;
    this.textChars += add.length;
  }

  /** A whole tool call; `input` is its JSON text (or the object, written as JSON). */
  protected toolCall(id: unknown, name: unknown, input?: unknown): void {
    if (this.facts.toolCalls.length >= MAX_TOOL_CALLS) return;
    const text =
      typeof input === 'string' ? input : input === undefined ? '' : JSON.stringify(input);
    this.facts.toolCalls.push({
      id: str(id, 200),
      name: str(name) ?? '?',
      ...(text ? { input: text.slice(0, INPUT_CAP) } : {}),
    });
  }
}
