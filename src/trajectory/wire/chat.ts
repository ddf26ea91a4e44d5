import {
  isObj,
  jsonText,
  str,
  type ConversationReader,
  type Obj,
  type WireAnswer,
  type WireEntry,
  type WireItem,
} from './common.js';

/**
 * OpenAI Chat Completions: `messages` of a role and a content (a string or text parts), the
 * model's `tool_calls` on its own messages, a tool's output as a `tool` message naming its
 * call; an answer streamed as chunks whose `delta` adds text and tool calls by index.
 */
export const CHAT_CONVERSATION: ConversationReader = {
  history: (body) => (Array.isArray(body.messages) ? body.messages : []),
  entry: chatEntry,
  answer: (events, json, into) => {
    if (events) chatEvents(events, into);
    else if (json) chatJson(json, into);
  },
};

function chatEntry(m: unknown): WireEntry {
  if (!isObj(m)) return { role: 'unknown', items: [] };
  const role = str(m.role) ?? 'unknown';
  const text = contentText(m.content);
  if (role === 'tool') {
    const output = text ?? jsonText(m.content);
    return {
      role,
      items: [{ type: 'tool_result', id: str(m.tool_call_id), output, isError: null }],
    };
  }
  const items: WireItem[] = text ? [{ type: 'text', role, text }] : [];
  for (const t of Array.isArray(m.tool_calls) ? m.tool_calls : []) {
    const fn = isObj(t) && isObj(t.function) ? t.function : {};
    const id = isObj(t) ? str(t.id) : null;
    items.push({ type: 'tool_call', id, name: str(fn.name) ?? '?', input: jsonText(fn.arguments) });
  }
  return { role, items };
}

/** A message's content as text: a string, or its text parts joined. */
function contentText(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return null;
  const texts = content.flatMap((p) => (isObj(p) && typeof p.text === 'string' ? [p.text] : []));
  return texts.length > 0 ? texts.join('\n') : null;
}

function chatJson(body: Obj, into: WireAnswer): void {
  const choice = Array.isArray(body.choices) && isObj(body.choices[0]) ? body.choices[0] : {};
  const entry = chatEntry({ role: 'assistant', ...(isObj(choice.message) ? choice.message : {}) });
  for (const item of entry.items) {
    if (item.type === 'text') into.texts.push(item.text);
    else if (item.type === 'tool_call') into.toolCalls.push(item);
  }
}

function chatEvents(events: readonly Obj[], into: WireAnswer): void {
  let text = '';
  const tools = new Map<number, { id: string | null; name: string; input: string }>();
  for (const e of events) {
    const choice = Array.isArray(e.choices) && isObj(e.choices[0]) ? e.choices[0] : null;
    const delta = choice && isObj(choice.delta) ? choice.delta : null;
    if (!delta) continue;
    if (typeof delta.content === 'string') text += delta.content;
    for (const t of Array.isArray(delta.tool_calls) ? delta.tool_calls : []) {
      if (!isObj(t) || !Number.isSafeInteger(t.index)) continue;
      const fn = isObj(t.function) ? t.function : {};
      const known = tools.get(t.index as number) ?? { id: null, name: '?', input: '' };
      known.id ??= str(t.id);
      if (typeof fn.name === 'string' && fn.name !== '') known.name = fn.name;
      if (typeof fn.arguments === 'string') known.input += fn.arguments;
      tools.set(t.index as number, known);
    }
  }
  if (text !== '') into.texts.push(text);
  for (const [, t] of [...tools].sort((a, b) => a[0] - b[0])) into.toolCalls.push(t);
}
