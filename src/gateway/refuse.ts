/**
 * The gateway's refusals: answered by the gateway itself, logged among the first few, and a
 * connection refused too often closed, so a flood costs a reconnection each time.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { record, refused } from './call-end.js';
import type { CallState, Gateway } from './state.js';

/**
 * Answers a refusal itself, logs it among the first few (the rest are counted), and closes a
 * connection refused too often in a row, so that a flood costs a reconnection each time.
 */
export function refuse(
  g: Gateway,
  call: CallState,
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  type: string,
  message: string,
): void {
  const body = JSON.stringify({ type: 'error', error: { type, message } });
  const socket = req.socket;
  const refusals = (g.refusalsOf.get(socket) ?? 0) + 1;
  g.refusalsOf.set(socket, refusals);
  // A body this refusal would have to drain (large, or of no declared length) closes too.
  const length = lengthOf(req.headers['content-length']);
  const drain = length !== null && length <= DRAINED_BYTES;
  const close =
    refusals >= g.opts.maxRefusalsPerConnection || status === 413 || status === 503 || !drain;
  // A connection kept is drained; one that closes reads nothing more (a flood's body stays
  // in the socket, never in memory) and is destroyed once the answer is written.
  if (!close) req.resume();
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    // A refusal is final; a budget that is full may have room again in a moment.
    'x-should-retry': status === 503 ? 'true' : 'false',
    ...(status === 503 ? { 'retry-after': '1' } : {}),
    ...(close ? { connection: 'close' } : {}),
  });
  res.end(body);
  if (close) {
    g.recorder.connectionCut();
    res.once('finish', () => socket.destroy());
  }
  const seq = g.recorder.refuse(status);
  if (seq !== null) {
    record(g, call, { ...refused(type), seq }, status, Buffer.byteLength(body), message);
  }
}

/** A refused request's body up to this is read and dropped, keeping its connection; larger closes it. */
export const DRAINED_BYTES = 64 * 1024;

export const MEMORY_FULL = "the host's memory for request bodies is full; retry in a moment";

/** A declared content length, or null when absent or not a length. */
export function lengthOf(header: string | undefined): number | null {
  if (header === undefined || !/^\d{1,15}$/u.test(header)) return null;
  return Number(header);
}
