import { isObj, type Obj } from './common.js';
import type { WireApiName } from './types.js';

/**
 * What the agent's harness wrote in a request, API by API: its system prompt or instructions,
 * its tools' declarations, and the texts of the messages that are not the model's own nor a
 * tool's result (harnesses put reminders, instruction files and skill listings there). Tool
 * results, tool calls and the model's answers are left out: text the model caused to be read
 * (a `cat` of a file) is not text the harness loaded.
 *
 * The user's prompt is a message text too; the treatment check takes it out by its content.
 * null: the body is not a request of that API (nothing can be decided from it).
 */
export function harnessTexts(api: WireApiName, body: unknown): string[] | null {
  if (!isObj(body)) return null;
  const out = new Collector();
  switch (api) {
    case 'messages':
      if (!Array.isArray(body.messages)) return null;
      out.textOrBlocks(body.system, 'text');
      out.all(body.tools);
      for (const m of body.messages) {
        if (isObj(m) && m.role !== 'assistant') out.textOrBlocks(m.content, 'text');
      }
      break;
    case 'responses':
      if (typeof body.input !== 'string' && !Array.isArray(body.input)) return null;
      out.textOrBlocks(body.instructions, 'input_text');
      out.all(body.tools);
      if (typeof body.input === 'string') out.text(body.input);
      for (const item of Array.isArray(body.input) ? body.input : []) {
        if (!isObj(item) || (item.type !== undefined && item.type !== 'message')) continue;
        if (item.role !== 'assistant') out.textOrBlocks(item.content, 'input_text');
      }
      break;
    case 'chat':
      if (!Array.isArray(body.messages)) return null;
      out.all(body.tools);
      for (const m of body.messages) {
        if (isObj(m) && ['system', 'developer', 'user'].includes(String(m.role))) {
          out.textOrBlocks(m.content, 'text');
        }
      }
      break;
    case 'gemini':
      if (!Array.isArray(body.contents)) return null;
      out.parts(body.systemInstruction);
      out.all(body.tools);
      for (const c of body.contents) {
        if (isObj(c) && c.role !== 'model') out.parts(c);
      }
      break;
  }
  return out.texts;
}

/** Strings gathered within caps: a request of any size is read in bounded time. */
class Collector {
  readonly texts: string[] = [];
  private chars = 0;

  text(v: unknown): void {
    if (typeof v !== 'string' || v === '' || this.full()) return;
    this.texts.push(v);
    this.chars += v.length;
  }

  /** A string, or a list of blocks of which those of `type` (or untyped) hold `text`. */
  textOrBlocks(v: unknown, type: string): void {
    if (typeof v === 'string') return this.text(v);
    if (!Array.isArray(v)) return;
    for (const b of v.slice(0, MAX_ITEMS)) {
      if (isObj(b) && (b.type === type || b.type === undefined)) this.text(b.text);
    }
  }

  /** Gemini's `{ parts: [{ text }] }`: text parts only (never a function call or response). */
  parts(v: unknown): void {
    if (typeof v === 'string') return this.text(v);
    const parts = isObj(v) && Array.isArray(v.parts) ? v.parts : [];
    for (const p of parts.slice(0, MAX_ITEMS)) if (isObj(p)) this.text(p.text);
  }

  /** Every string below `v` (a tool's name, description, schema and enums). */
  all(v: unknown): void {
    const stack: unknown[] = [v];
    let visited = 0;
    while (stack.length > 0 && visited++ < MAX_VISITS && !this.full()) {
      const x = stack.pop();
      if (typeof x === 'string') this.text(x);
      else if (Array.isArray(x)) stack.push(...x.slice(0, MAX_ITEMS));
      else if (isObj(x)) stack.push(...Object.values(x as Obj));
    }
  }

  private full(): boolean {
    return this.texts.length >= MAX_TEXTS || this.chars >= MAX_CHARS;
  }
}

/** Caps of what one request gives the search (far above any agent's harness text). */
const MAX_TEXTS = 20_000;
const MAX_CHARS = 32 * 1024 * 1024;
const MAX_ITEMS = 10_000;
const MAX_VISITS = 200_000;
