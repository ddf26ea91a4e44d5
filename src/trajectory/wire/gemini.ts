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
 * The Gemini API: `contents` of a role (`user`, `model`) and parts (text, a `functionCall`, a
 * `functionResponse`); an answer streamed as chunks of a candidate's parts. The API gives a
 * call no id: Gemini CLI names its calls and their responses with an id of its own where it
 * can; where neither has one, results are matched to calls by name, in order.
 */
export const GEMINI_CONVERSATION: ConversationReader = {
  history: (body) => (Array.isArray(body.contents) ? body.contents : []),
  entry: geminiEntry,
  answer: (events, json, into) => {
    for (const chunk of events ?? (json ? [json] : [])) geminiChunk(chunk, into);
    // Streamed text arrives in pieces: one text of the answer.
    if (into.texts.length > 1) into.texts.splice(0, into.texts.length, into.texts.join(''));
  },
};

function geminiEntry(c: unknown): WireEntry {
  if (!isObj(c)) return { role: 'unknown', items: [] };
  const role = c.role === 'model' ? 'assistant' : (str(c.role) ?? 'user');
  const parts = Array.isArray(c.parts) ? c.parts : [];
  return { role, items: parts.flatMap((p) => geminiPart(role, p)) };
}

function geminiPart(role: string, p: unknown): WireItem[] {
  if (!isObj(p) || p.thought === true) return [];
  if (typeof p.text === 'string') return [{ type: 'text', role, text: p.text }];
  if (isObj(p.functionCall)) {
    const f = p.functionCall;
    return [
      { type: 'tool_call', id: str(f.id), name: str(f.name) ?? '?', input: jsonText(f.args ?? {}) },
    ];
  }
  if (isObj(p.functionResponse)) {
    const r = p.functionResponse;
    const said = isObj(r.response)
      ? (r.response.output ?? r.response.error ?? r.response)
      : r.response;
    return [
      {
        type: 'tool_result',
        id: str(r.id),
        name: str(r.name) ?? '?',
        output: jsonText(said),
        isError: null,
      },
    ];
  }
  return [];
}

function geminiChunk(chunk: Obj, into: WireAnswer): void {
  const candidate =
    Array.isArray(chunk.candidates) && isObj(chunk.candidates[0]) ? chunk.candidates[0] : null;
  const content = candidate && isObj(candidate.content) ? candidate.content : null;
  for (const item of geminiEntry({ role: 'model', ...(content ?? {}) }).items) {
    if (item.type === 'text') into.texts.push(item.text);
    else if (item.type === 'tool_call') into.toolCalls.push(item);
  }
}
