import type { FlightRecord, ModelCall } from '../flight/index.js';
import { clipText } from './text.js';
import { TEXT_CAP, type MessageStep, type ModelStep, type ToolStep } from './types.js';
import { answerOf, entryOf, requestHistory, type WireEntry } from './wire/index.js';

/** A step before it has its place: its turn, and the time it sorts by. */
export type Draft<S> = { -readonly [K in keyof S]: S[K] } & { sortAt: number };
export type DraftModel = Omit<Draft<ModelStep>, 'tool_steps'> & { tools: Draft<ToolStep>[] };
export type DraftStep = Draft<MessageStep> | DraftModel | Draft<ToolStep>;

const timeOf = (iso: string): number => {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? 0 : t;
};

/**
 * The steps of an adapter agent's session from its flight record, in call order: what each
 * request said that the model had not seen (prompts, messages), each answer (its text, its
 * tool calls with their inputs), and each tool's output as the next request sent it back.
 * `turnOf` says which turn a call belongs to (from the stops' witnessed call ranges).
 */
export function modelSteps(flight: FlightRecord, turnOf: (seq: number) => number): DraftStep[] {
  const steps: DraftStep[] = [];
  const tools = new Map<string, Draft<ToolStep>>();
  // Calls no id names (Gemini's): their results are matched by name, in the order asked.
  const unnamed: Draft<ToolStep>[] = [];
  let seen = 0;
  const calls = [...flight.calls].sort((a, b) => a.seq - b.seq);
  for (const call of calls) {
    const turn = turnOf(call.seq);
    const body = call.api === null ? null : flight.request(call);
    const side = !declaresTools(body);
    if (!side && call.api !== null && body !== null) {
      // Only what follows the last request's history is read: a long session costs its new part.
      const api = call.api;
      const history = requestHistory(api, body);
      const fresh =
        history.length >= seen
          ? history.slice(seen).map((e) => entryOf(api, e))
          : afterLastAnswer(history.map((e) => entryOf(api, e)));
      seen = history.length;
      steps.push(...newEntries(fresh, call, turn, { tools, unnamed }));
    }
    const model = modelStep(flight, call, turn, side);
    for (const tool of model.tools) {
      if (tool.id !== null) tools.set(tool.id, tool);
      else unnamed.push(tool);
    }
    steps.push(model, ...model.tools);
  }
  return steps;
}

function declaresTools(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const t = (body as { tools?: unknown }).tools;
  return Array.isArray(t) && t.length > 0;
}

/** A history shorter than the last one (compacted, or a new session): what followed its last answer. */
function afterLastAnswer(entries: readonly WireEntry[]): WireEntry[] {
  let last = -1;
  entries.forEach((e, i) => {
    if (e.role === 'assistant') last = i;
  });
  return entries.slice(last + 1);
}

/**
 * The entries a request added: texts from anyone but the model become message steps; tool
 * results give their tool step its output; the model's own calls echoed back fill in an input
 * the answer's record lacked.
 */
function newEntries(
  entries: readonly WireEntry[],
  call: ModelCall,
  turn: number,
  known: { tools: Map<string, Draft<ToolStep>>; unnamed: Draft<ToolStep>[] },
): Draft<MessageStep>[] {
  const { tools, unnamed } = known;
  const at = timeOf(call.time);
  const out: Draft<MessageStep>[] = [];
  for (const entry of entries) {
    for (const item of entry.items) {
      if (item.type === 'text' && entry.role !== 'assistant') {
        if (item.text.trim() === '') continue;
        out.push({
          kind: 'message',
          i: 0,
          turn,
          at: call.time,
          duration_ms: null,
          role: entry.role,
          text: clipText(item.text, TEXT_CAP),
          call: call.seq,
          sortAt: at,
        });
      } else if (item.type === 'tool_result') {
        const byId = item.id === null ? undefined : tools.get(item.id);
        const k = byId
          ? -1
          : unnamed.findIndex((t) => item.name === undefined || t.name === item.name);
        const tool = byId ?? (k < 0 ? undefined : unnamed.splice(k, 1)[0]);
        if (!tool || tool.output !== null) continue;
        tool.output = clipText(item.output, TEXT_CAP);
        tool.is_error = item.isError;
        tool.duration_ms = Math.max(0, Math.round(at - tool.sortAt));
      } else if (item.type === 'tool_call') {
        const tool = item.id === null ? undefined : tools.get(item.id);
        if (tool && tool.input === '') tool.input = clipText(item.input, TEXT_CAP);
      }
    }
  }
  return out;
}

/** One call as a model step, with the tool steps its answer asked for. */
function modelStep(flight: FlightRecord, call: ModelCall, turn: number, side: boolean): DraftModel {
  const text = call.api === null ? null : flight.responseText(call);
  const answer = text === null || call.api === null ? null : answerOf(call.api, text);
  const ended = timeOf(call.time) + call.latencyMs;
  const asked = answer?.toolCalls ?? call.toolCalls.map((t) => ({ ...t, input: '' }));
  const tools = asked.map((t, k): Draft<ToolStep> => ({
    kind: 'tool',
    i: 0,
    turn,
    at: new Date(ended).toISOString(),
    duration_ms: null,
    id: t.id,
    name: t.name,
    input: clipText(t.input, TEXT_CAP),
    output: null,
    is_error: null,
    call: call.seq,
    sortAt: ended + k * 1e-3,
  }));
  const said = answer?.texts.filter((s) => s.trim() !== '').join('\n\n') ?? '';
  return {
    kind: 'model',
    i: 0,
    turn,
    at: call.time,
    duration_ms: Math.round(call.latencyMs),
    call: call.seq,
    model: call.model,
    outcome: call.outcome,
    reason: call.reason ?? call.problem ?? null,
    status: call.status,
    side,
    text: said === '' ? null : clipText(said, TEXT_CAP),
    tokens: {
      input: call.tokens.input,
      output: call.tokens.output,
      cache_read: call.tokens.cacheRead,
      cache_write: call.tokens.cacheWrite,
    },
    tools,
    sortAt: timeOf(call.time) + 1e-4,
  };
}
