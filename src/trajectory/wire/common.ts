import type { WireApiName } from '../../flight/index.js';

/**
 * A conversation's bodies read as the trajectory needs them: who said what, which tools were
 * called with which input, and what each returned. Every value is the agent's or the model's
 * (untrusted): read as data, never followed; unknown shapes are skipped, never guessed at.
 */

/** One thing said in a conversation. */
export type WireItem =
  | { readonly type: 'text'; readonly role: string; readonly text: string }
  | {
      readonly type: 'tool_call';
      readonly id: string | null;
      readonly name: string;
      /** The input as the model wrote it (JSON text, or a custom tool's raw text). */
      readonly input: string;
    }
  | {
      readonly type: 'tool_result';
      readonly id: string | null;
      /** The tool's name, where the API gives its calls no id (Gemini): results match by it. */
      readonly name?: string;
      readonly output: string;
      readonly isError: boolean | null;
    };

/** One element of a request's history (a message, or a Responses input item): what it holds. */
export interface WireEntry {
  readonly role: string;
  readonly items: readonly WireItem[];
}

/** What one answer said: its texts and the tools it called, with their inputs. */
export interface WireAnswer {
  readonly texts: string[];
  readonly toolCalls: Array<{ id: string | null; name: string; input: string }>;
}

/** How one API's bodies are read: its history, one element of it, and a relayed answer. */
export interface ConversationReader {
  history(body: Obj): unknown[];
  entry(element: unknown): WireEntry;
  /** The answer from its server-sent events' data, or from its JSON body. */
  answer(events: readonly Obj[] | null, json: Obj | null, into: WireAnswer): void;
}

export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
export const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
export const jsonText = (v: unknown): string =>
  typeof v === 'string' ? v : JSON.stringify(v ?? null);

/** Adds a said text or an asked tool call of `item` to `answer`. */
export function addItem(item: WireItem, answer: WireAnswer): void {
  if (item.type === 'text') answer.texts.push(item.text);
  else if (item.type === 'tool_call')
    answer.toolCalls.push({ id: item.id, name: item.name, input: item.input });
}

export type { WireApiName };
