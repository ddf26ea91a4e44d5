/**
 * How a call ends, once: the witness's facts, the response kept within its caps and the
 * memory budget, the line logged and kept in memory, the call out of the flight.
 */
import type { ServerResponse } from 'node:http';
import {
  NO_TOKENS,
  type BodyRef,
  type CallOutcome,
  type ModelCall,
  type ResponseFacts,
} from '../flight/index.js';
import type { CallState, Gateway } from './state.js';

export function refused(reason: string): ResponseFacts & { seq: number } {
  return {
    seq: 0,
    outcome: 'refused',
    reason,
    id: null,
    model: null,
    stopReason: null,
    tokens: { ...NO_TOKENS },
    texts: [],
    toolCalls: [],
  };
}

/** Keeps a response chunk for the record, within its cap and the memory budget. */
export function keepChunk(g: Gateway, call: CallState, chunk: Buffer): void {
  if (call.kept === null) return;
  const over = call.keptBytes + chunk.length > g.opts.maxKeptResponseBytes;
  if (over || !g.budget.take(chunk.length)) {
    call.keptWhy = over
      ? `the response passed ${g.opts.maxKeptResponseBytes} bytes`
      : "the host's memory for bodies in flight was full";
    dropKept(g, call);
    return;
  }
  call.kept.push(chunk);
  call.keptBytes += chunk.length;
}

export function dropKept(g: Gateway, call: CallState): void {
  g.budget.give(call.keptBytes);
  call.kept = null;
  call.keptBytes = 0;
}

/** The gateway's own answer when the upstream failed before answering. */
export function answerError(
  g: Gateway,
  call: CallState,
  res: ServerResponse,
  status: number,
  reason: string,
  problem: string,
): void {
  const message = call.scrubber.text(problem);
  const body = JSON.stringify({ type: 'error', error: { type: 'api_error', message } });
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    'x-should-retry': 'true', // an upstream that failed may answer the next time
  });
  res.end(body);
  call.responseBytes = Buffer.byteLength(body);
  call.reader = null;
  finish(g, call, status, problem, reason, 'error');
}

/**
 * Ends a forwarded call once: the witness's facts from the reader (`cutReason` when the
 * gateway knows why it ended early), the response kept, the line logged.
 */
export function finish(
  g: Gateway,
  call: CallState,
  status: number,
  problem?: string,
  cutReason?: string,
  outcome?: CallOutcome,
): void {
  if (call.done) return;
  call.done = true;
  const facts: ResponseFacts = call.reader
    ? call.reader.end(cutReason)
    : { ...refused(cutReason ?? 'no_answer'), outcome: outcome ?? 'cut' };
  const whole = call.kept !== null && call.reader !== null;
  const raw = whole ? Buffer.concat(call.kept!) : null;
  const why = call.keptWhy ?? (call.reader ? undefined : 'the gateway answered itself');
  const t = facts.tokens;
  call.ticket?.end((t.input ?? 0) + (t.output ?? 0) + (t.cacheRead ?? 0) + (t.cacheWrite ?? 0));
  const responseRef = g.recorder.keepResponse(call.seq, raw, why);
  if (call.kept) dropKept(g, call);
  record(g, call, { ...facts, seq: call.seq }, status, call.responseBytes, problem, responseRef);
  g.refusalsOf.delete(call.socket); // a call that went through: the refusals in a row start again
  endFlight(g, call);
}

export function endFlight(g: Gateway, call: CallState): void {
  if (!call.flying) return;
  call.flying = false;
  g.flight.inFlight = Math.max(0, g.flight.inFlight - 1);
  if (g.flight.inFlight === 0) for (const w of g.flight.waiters.splice(0)) w();
}

/** Logs one call (its line) and keeps it in memory with its texts for the witness. */
export function record(
  g: Gateway,
  call: CallState,
  facts: ResponseFacts & { seq: number },
  status: number,
  responseBytes: number,
  problem?: string,
  responseRef?: BodyRef,
): void {
  const scrub = (s: string): string => g.recorder.scrub(s);
  const line: ModelCall = {
    seq: facts.seq,
    time: call.time,
    method: call.method,
    path: call.path,
    api: call.api?.name ?? null,
    model: call.requestFacts?.model ?? facts.model,
    status,
    outcome: facts.outcome,
    reason: facts.reason === null ? null : scrub(facts.reason).slice(0, 200),
    requestBytes: call.requestBytes,
    responseBytes,
    latencyMs: Math.round((performance.now() - call.began) * 100) / 100,
    ...(call.ticket && call.ticket.queuedMs > 0
      ? { queuedMs: Math.round(call.ticket.queuedMs * 100) / 100 }
      : {}),
    tokens: facts.tokens,
    ...(facts.serverTools ? { serverTools: facts.serverTools } : {}),
    answerId: facts.id,
    stopReason: facts.stopReason,
    toolCalls: facts.toolCalls.map((t) => ({ id: t.id, name: scrub(t.name).slice(0, 100) })),
    ...(call.requestRef ? { request: call.requestRef } : {}),
    ...(responseRef ? { response: responseRef } : {}),
    ...(problem ? { problem: scrub(problem).slice(0, 400) } : {}),
    ...(call.scrubber.count > 0 ? { echoesScrubbed: call.scrubber.count } : {}),
  };
  if (g.calls.length < g.recorder.caps.maxCalls) {
    // In memory only, beside the line: what each tool call asked (which file, which skill).
    const toolCalls = facts.toolCalls.map((t, i) => ({
      ...line.toolCalls[i]!,
      ...(t.input === undefined ? {} : { input: scrub(t.input) }),
    }));
    g.calls.push({
      ...line,
      toolCalls,
      texts: facts.texts.map(scrub),
      requestFacts: call.requestFacts,
    });
  }
  g.recorder.log(line);
  g.opts.onCall?.(line);
}
