/**
 * A call forwarded: the upstream request opened with the host's headers, its answer relayed
 * back with backpressure, read by the witness and kept, bounded by an idle timeout and a cap.
 */
import type { ClientRequest, IncomingMessage, ServerResponse } from 'node:http';
import { answerError, finish, keepChunk } from './call-end.js';
import type { CallState, Gateway } from './state.js';
import {
  responseHeaders,
  upstreamHeaders,
  upstreamPath,
  upstreamQuery,
} from './upstream-request.js';

/** Opens the upstream request (sent by the caller) and relays its answer. */
export function forward(
  g: Gateway,
  call: CallState,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  body: Buffer,
): ClientRequest {
  const target = new URL(g.upstream.href);
  target.pathname = upstreamPath(g.upstream.pathname, url.pathname);
  target.search = upstreamQuery(call.api!, url);
  const up = g.send(target, {
    method: 'POST',
    headers: upstreamHeaders(g, req, body.length, call.api!),
    agent: g.agent,
  });
  let idle: NodeJS.Timeout | undefined;
  const cut = (status: number, reason: string, problem: string): void => {
    up.destroy();
    if (!res.headersSent) answerError(g, call, res, status, reason, problem);
    else {
      res.destroy();
      finish(g, call, res.statusCode, problem, reason);
    }
  };
  const arm = (): void => {
    clearTimeout(idle);
    idle = setTimeout(() => {
      const ms = g.opts.idleTimeoutMs;
      cut(504, 'upstream_idle', `the upstream sent nothing for ${ms} ms`);
    }, g.opts.idleTimeoutMs);
  };
  arm();
  res.on('close', () => {
    clearTimeout(idle);
    if (!res.writableFinished) {
      up.destroy();
      finish(
        g,
        call,
        res.headersSent ? res.statusCode : 499,
        'the client went away',
        'client_gone',
      );
    }
  });
  up.on('error', (e) => {
    clearTimeout(idle);
    // The message names the failure, never the key (it is in no URL or error).
    if (!call.done) cut(502, 'upstream_failed', `the upstream failed: ${e.message.slice(0, 200)}`);
  });
  up.on('response', (upRes) => relay(g, call, res, upRes, arm, cut, () => clearTimeout(idle)));
  return up;
}

/** Relays the upstream's answer to the client, read by the witness and kept for the record. */
export function relay(
  g: Gateway,
  call: CallState,
  res: ServerResponse,
  upRes: IncomingMessage,
  arm: () => void,
  cut: (status: number, reason: string, problem: string) => void,
  disarm: () => void,
): void {
  arm();
  const status = upRes.statusCode ?? 502;
  call.ticket?.answered(status, upRes.headers);
  res.writeHead(status, responseHeaders(upRes, call.scrubber));
  call.reader = call.api!.responseReader({
    status,
    contentType: String(upRes.headers['content-type'] ?? ''),
  });
  upRes.on('data', (chunk: Buffer) => {
    arm();
    call.responseBytes += chunk.length;
    if (call.responseBytes > g.opts.maxResponseBytes) {
      upRes.destroy();
      const max = g.opts.maxResponseBytes;
      cut(502, 'response_too_large', `the upstream's response passed ${max} bytes`);
      return;
    }
    call.reader!.push(chunk);
    keepChunk(g, call, chunk);
    // The container gets the chunk masked; the record keeps it whole and scrubs it itself.
    const out = call.scrubber.push(chunk);
    if (out.length > 0 && !res.write(out)) {
      upRes.pause(); // backpressure: the client's pace, not a growing buffer
      res.once('drain', () => upRes.resume());
    }
  });
  upRes.on('end', () => {
    disarm();
    if (call.done) return;
    const rest = call.scrubber.end();
    if (rest.length > 0) res.end(rest);
    else res.end();
    finish(g, call, status);
  });
  upRes.on('error', () => undefined); // 'close' on res or the idle bound ends the call
}
