import type { WireApiName } from '../flight/index.js';

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
      readonly output: string;
      readonly isError: boolean | null;
    };

/** One element of a request's history (a message, or a Responses input item): what it holds. */
export interface WireEntry {
  readonly role: string;
  readonly items: readonly WireItem[];
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const jsonText = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v ?? null));

/**
 * The history a request carries, as its raw elements: its `messages` (Messages API) or its
 * `input` (Responses API; a string input is one user message). {@link entryOf} reads one.
 */
export function requestHistory(api: WireApiName, body: unknown): unknown[] {
  if (!isObj(body)) return [];
  if (api === 'messages') return Array.isArray(body.messages) ? body.messages : [];
  if (typeof body.input === 'string')
    return [{ type: 'message', role: 'user', content: body.input }];
  return Array.isArray(body.input) ? body.input : [];
}

/** One element of a request's history, read. */
export function entryOf(api: WireApiName, element: unknown): WireEntry {
  return api === 'messages' ? messageEntry(element) : responsesEntry(element);
}

/** The history a request carries, one entry per element (see {@link requestHistory}). */
export function requestEntries(api: WireApiName, body: unknown): WireEntry[] {
  return requestHistory(api, body).map((e) => entryOf(api, e));
}

function messageEntry(m: unknown): WireEntry {
  if (!isObj(m)) return { role: 'unknown', items: [] };
  const role = str(m.role) ?? 'unknown';
  if (typeof m.content === 'string')
    return { role, items: [{ type: 'text', role, text: m.content }] };
  const blocks = Array.isArray(m.content) ? m.content : [];
  return { role, items: blocks.flatMap((b) => messageBlock(role, b)) };
}

function messageBlock(role: string, b: unknown): WireItem[] {
  if (!isObj(b)) return [];
  switch (b.type) {
    case 'text':
      return [{ type: 'text', role, text: str(b.text) ?? '' }];
    case 'tool_use':
      return [
        { type: 'tool_call', id: str(b.id), name: str(b.name) ?? '?', input: jsonText(b.input) },
      ];
    case 'tool_result':
      return [
        {
          type: 'tool_result',
          id: str(b.tool_use_id),
          output: resultText(b.content),
          isError: typeof b.is_error === 'boolean' ? b.is_error : false,
        },
      ];
    default:
      return [];
  }
}

/** A tool result's content: a string, or blocks whose texts are joined (others named). */
function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((c) =>
      isObj(c) && c.type === 'text' ? (str(c.text) ?? '') : `[${isObj(c) ? String(c.type) : '?'}]`,
    )
    .join('\n');
}

function responsesEntry(item: unknown): WireEntry {
  if (!isObj(item)) return { role: 'unknown', items: [] };
  const type = str(item.type) ?? (item.role !== undefined ? 'message' : '');
  switch (type) {
    case 'message': {
      const role = str(item.role) ?? 'unknown';
      const parts = typeof item.content === 'string' ? [{ text: item.content }] : item.content;
      const texts = (Array.isArray(parts) ? parts : []).flatMap((p) =>
        isObj(p) && typeof p.text === 'string' ? [p.text] : [],
      );
      return { role, items: texts.map((text) => ({ type: 'text', role, text })) };
    }
    case 'function_call':
    case 'custom_tool_call':
    case 'local_shell_call':
      return { role: 'assistant', items: [responsesToolCall(item)] };
    case 'function_call_output':
    case 'custom_tool_call_output':
    case 'local_shell_call_output':
      return {
        role: 'tool',
        items: [
          {
            type: 'tool_result',
            id: str(item.call_id),
            output: jsonText(item.output),
            isError: null,
          },
        ],
      };
    default:
      return { role: type || 'unknown', items: [] };
  }
}

function responsesToolCall(item: Obj): WireItem {
  const input = item.arguments ?? item.input ?? item.action;
  return {
    type: 'tool_call',
    id: str(item.call_id) ?? str(item.id),
    name: str(item.name) ?? (item.type === 'local_shell_call' ? 'local_shell' : '?'),
    input: jsonText(input),
  };
}

/** What one answer said: its texts and the tools it called, with their inputs. */
export interface WireAnswer {
  readonly texts: string[];
  readonly toolCalls: Array<{ id: string | null; name: string; input: string }>;
}

/**
 * Reads a relayed response (server-sent events or JSON) for its texts and tool calls with
 * their whole inputs, which the flight record's own facts leave out.
 */
export function answerOf(api: WireApiName, text: string): WireAnswer {
  const answer: WireAnswer = { texts: [], toolCalls: [] };
  const sse = text.startsWith('event:') || text.startsWith('data:');
  if (!sse) {
    const body = parseJson(text);
    if (isObj(body)) (api === 'messages' ? messagesJson : responsesJson)(body, answer);
    return answer;
  }
  const events = text
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => parseJson(line.slice(5).trim()))
    .filter(isObj);
  if (api === 'messages') messagesEvents(events, answer);
  else responsesEvents(events, answer);
  return answer;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

function messagesJson(m: Obj, answer: WireAnswer): void {
  const blocks = Array.isArray(m.content) ? m.content : [];
  for (const item of blocks.flatMap((b) => messageBlock('assistant', b))) addItem(item, answer);
}

function addItem(item: WireItem, answer: WireAnswer): void {
  if (item.type === 'text') answer.texts.push(item.text);
  else if (item.type === 'tool_call')
    answer.toolCalls.push({ id: item.id, name: item.name, input: item.input });
}

function messagesEvents(events: readonly Obj[], answer: WireAnswer): void {
  const blocks = new Map<
    number,
    { kind: 'text' | 'tool'; id: string | null; name: string; buf: string[] }
  >();
  const order: number[] = [];
  for (const e of events) {
    const index = Number(e.index);
    if (e.type === 'content_block_start' && isObj(e.content_block)) {
      const b = e.content_block;
      if (b.type === 'text')
        blocks.set(index, { kind: 'text', id: null, name: '', buf: [str(b.text) ?? ''] });
      else if (b.type === 'tool_use')
        blocks.set(index, { kind: 'tool', id: str(b.id), name: str(b.name) ?? '?', buf: [] });
      else continue;
      order.push(index);
    } else if (e.type === 'content_block_delta' && isObj(e.delta)) {
      const block = blocks.get(index);
      const piece = str(e.delta.text) ?? str(e.delta.partial_json);
      if (block && piece !== null) block.buf.push(piece);
    }
  }
  for (const i of order) {
    const b = blocks.get(i)!;
    if (b.kind === 'text') answer.texts.push(b.buf.join(''));
    else answer.toolCalls.push({ id: b.id, name: b.name, input: b.buf.join('') || '{}' });
  }
}

function responsesJson(r: Obj, answer: WireAnswer): void {
  const output = Array.isArray(r.output) ? r.output : [];
  for (const item of output) {
    for (const it of responsesEntry(item).items) addItem(it, answer);
  }
}

function responsesEvents(events: readonly Obj[], answer: WireAnswer): void {
  const done = events.filter((e) => e.type === 'response.output_item.done' && isObj(e.item));
  if (done.length > 0) {
    for (const e of done) for (const it of responsesEntry(e.item).items) addItem(it, answer);
    return;
  }
  // No item was finished one by one: the terminal event's response holds them all.
  const end = events.find((e) => isObj(e.response) && Array.isArray((e.response as Obj).output));
  if (end) responsesJson(end.response as Obj, answer);
}
