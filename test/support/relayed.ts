// Calls as a gateway would have relayed them, built from a model script through the stand-in's
// own rendering and the witness's own readers: what the unit tests of the witness feed it.
import {
  WIRE_APIS,
  type RelayedCall,
  type RequestFacts,
  type WireApiName,
} from '../../src/flight/index.js';
import {
  apiMessage,
  responsesObject,
  responsesFrames,
  sseFrames,
  type ScriptMessage,
} from '../../src/model-stand-in/index.js';

/** The `n`-th call (from 1) answering `message` on `api`, read back by the witness's reader. */
export function relayedCall(
  api: WireApiName,
  message: ScriptMessage,
  n: number,
  options: { model?: string; request?: Partial<RequestFacts>; status?: number } = {},
): RelayedCall {
  const model = options.model ?? (api === 'messages' ? 'claude-opus-5-5' : 'gpt-5.1-codex');
  const frames =
    api === 'messages'
      ? sseFrames(apiMessage(message, model, n))
      : responsesFrames(responsesObject(message, model, n));
  const reader = WIRE_APIS[api].responseReader({
    status: options.status ?? 200,
    contentType: 'text/event-stream',
  });
  reader.push(Buffer.from(frames.join('')));
  const facts = reader.end();
  return {
    seq: n,
    time: new Date(0).toISOString(),
    method: 'POST',
    path: WIRE_APIS[api].paths[0]!,
    api,
    model,
    status: options.status ?? 200,
    outcome: facts.outcome,
    reason: facts.reason,
    requestBytes: 100,
    responseBytes: 100,
    latencyMs: 1,
    tokens: facts.tokens,
    answerId: facts.id,
    stopReason: facts.stopReason,
    toolCalls: facts.toolCalls,
    texts: facts.texts,
    requestFacts: {
      model,
      stream: true,
      hasTools: true,
      toolResults: [],
      ...options.request,
    },
  };
}
