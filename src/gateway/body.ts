/**
 * A request's body: read within its cap and the memory budget, numbered, queued at the
 * campaign's upstream limiter when there is one, forwarded, then read and kept by the witness.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { endFlight, finish } from './call-end.js';
import { MEMORY_FULL, lengthOf, refuse } from './refuse.js';
import { forward } from './relay.js';
import type { CallState, Gateway } from './state.js';

/**
 * Reads the request body within its cap and the memory budget (a declared length is taken
 * from the budget at once, or refused before anything is read), then forwards it. The body
 * holds its share of the budget until the upstream has taken it whole.
 */
export function readBody(
  g: Gateway,
  call: CallState,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): void {
  const max = g.opts.maxRequestBytes;
  const declared = lengthOf(req.headers['content-length']);
  const parts: Buffer[] = [];
  let held = 0;
  let over = false;
  const release = (): void => {
    g.budget.give(held);
    held = 0;
  };
  const take = (n: number): boolean => {
    if (!g.budget.take(n)) return false;
    held += n;
    return true;
  };
  const stop = (status: 413 | 503): void => {
    over = true;
    parts.length = 0;
    release();
    if (status === 413)
      refuse(g, call, req, res, 413, 'request_too_large', `request body over ${max} bytes`);
    else refuse(g, call, req, res, 503, 'overloaded_error', MEMORY_FULL);
    endFlight(g, call);
  };
  if (declared !== null && declared > max) return stop(413);
  if (declared !== null && !take(declared)) return stop(503);
  // One buffer of the declared size, taken from the budget: chunks are copied in as they come.
  const whole = declared === null ? null : Buffer.allocUnsafe(declared);
  req.on('data', (c: Buffer) => {
    if (over) return;
    call.requestBytes += c.length;
    if (call.requestBytes > max) return stop(413);
    // What the declared length did not take already is taken as it comes.
    const beyond = call.requestBytes - held;
    if (beyond > 0 && !take(beyond)) return stop(503);
    if (whole && call.requestBytes <= whole.length) c.copy(whole, call.requestBytes - c.length);
    else parts.push(c);
  });
  req.on('error', () => {
    if (over) return;
    over = true;
    parts.length = 0;
    release();
    endFlight(g, call); // nothing was numbered or forwarded: the broken request is not a call
  });
  req.on('end', () => {
    if (over) return;
    over = true;
    const body =
      whole && parts.length === 0
        ? whole.subarray(0, call.requestBytes)
        : Buffer.concat(whole ? [whole, ...parts] : parts, call.requestBytes);
    parts.length = 0;
    sendBody(g, call, req, res, url, body, release);
  });
}

/**
 * Numbers a whole request (or refuses it past the run's call limit), forwards its body, then
 * lets the witness read and keep it. `release` gives the body's memory back once the upstream
 * has taken it (or the request ended).
 */
export function sendBody(
  g: Gateway,
  call: CallState,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  body: Buffer,
  release: () => void,
): void {
  const seq = g.recorder.nextSeq();
  if (seq === null) {
    release();
    const why = `the run's limit of ${g.recorder.caps.maxCalls} model calls is reached`;
    refuse(g, call, req, res, 429, 'rate_limit_error', why);
    endFlight(g, call);
    return;
  }
  call.seq = seq;
  const send = (): void => {
    const up = forward(g, call, req, res, url, body);
    up.once('close', release);
    up.end(body, release);
  };
  if (g.opts.limiter) queueCall(g, call, res, send, release);
  else send();
  // The witness reads and keeps the body once it is on its way.
  const kept = g.recorder.keepRequest(seq, body, call.api!.name);
  call.requestRef = kept.ref;
  call.requestFacts = call.api!.readRequest(kept.parsed, call.path);
}

/**
 * Waits for the call's turn at the campaign's upstream (the limiter), counting the wait as
 * this gateway's queued time; a client gone meanwhile ends the call without forwarding it.
 */
export function queueCall(
  g: Gateway,
  call: CallState,
  res: ServerResponse,
  send: () => void,
  release: () => void,
): void {
  const gone = new AbortController();
  const onClose = (): void => gone.abort();
  res.once('close', onClose);
  const at = performance.now();
  g.queued.enter(at);
  g.opts.limiter!.acquire(gone.signal).then(
    (ticket) => {
      g.queued.leave(at + ticket.queuedMs);
      res.off('close', onClose);
      call.ticket = ticket;
      send();
    },
    () => {
      g.queued.leave();
      release();
      finish(g, call, 499, 'the client went away while the call was queued', 'client_gone');
    },
  );
}
