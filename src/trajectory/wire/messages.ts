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

/** The Messages API: `messages` of role and content blocks; answers as content blocks. */
export const MESSAGES_CONVERSATION: ConversationReader = {
  history: (body) => (Array.isArray(body.messages) ? body.messages : []),
  entry: messageEntry,
  answer: (events, json, into) => {
    if (events) messagesEvents(events, into);
    else if (json) messagesJson(json, into);
  },
};

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

function messagesJson(m: Obj, answer: WireAnswer): void {
  const blocks = Array.isArray(m.content) ? m.content : [];
  for (const item of blocks.flatMap((b) => messageBlock('assistant', b))) addItem(item, answer);
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
