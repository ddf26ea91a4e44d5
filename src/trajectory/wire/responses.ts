import {
  addItem,
  isObj,
  jsonText,
  str,
  type ConversationReader,
  type Obj,
  type WireAnswer,
  type WireEntry,
  type WireItem,
} from './common.js';

/** The Responses API: `input` items (a string is one user message); answers as output items. */
export const RESPONSES_CONVERSATION: ConversationReader = {
  history: (body) => {
    if (typeof body.input === 'string')
      return [{ type: 'message', role: 'user', content: body.input }];
    return Array.isArray(body.input) ? body.input : [];
  },
  entry: responsesEntry,
  answer: (events, json, into) => {
    if (events) responsesEvents(events, into);
    else if (json) responsesJson(json, into);
  },
};

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
