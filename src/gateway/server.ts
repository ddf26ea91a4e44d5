import {
  Agent as HttpAgent,
  createServer,
  request as httpRequest,
  type ClientRequest,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type ServerResponse,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import path from 'node:path';
import { EvalrigError } from '../errors/index.js';
import {
  FlightRecorder,
  NO_TOKENS,
  pathMatches,
  wireApiFor,
  type BodyRef,
  type CallOutcome,
  type ModelCall,
  type RelayedCall,
  type RequestFacts,
  type ResponseFacts,
  type ResponseReader,
  type WireApi,
} from '../flight/index.js';
import { checkServerOptions, listen, type ListeningServer } from '../host-server/index.js';
import { BodyBudget } from './budget.js';
import { QueuedTime, type UpstreamTicket } from './limiter.js';
import { SecretScrubber } from './scrub.js';
import type { ModelGateway, ModelGatewayOptions, UpstreamAuth } from './types.js';

const DEFAULTS = {
  paths: ['/v1/messages'] as readonly string[],
  maxRequestBytes: 32 * 1024 * 1024,
  maxResponseBytes: 64 * 1024 * 1024,
  maxKeptResponseBytes: 8 * 1024 * 1024,
  maxBodyMemory: 64 * 1024 * 1024,
  idleTimeoutMs: 300_000,
  requestTimeoutMs: 60_000,
  maxConnections: 16,
  maxRefusalsPerConnection: 3,
};
type Options = typeof DEFAULTS & ModelGatewayOptions;

/** Request headers passed on; everything else (the client's key above all) is dropped. */
const REQUEST_HEADERS = [
  'content-type',
  'accept',
  'anthropic-version',
  'anthropic-beta',
  'openai-beta',
  'user-agent',
];
/** Response headers passed back: what the clients need to stream, to retry and to pace themselves. */
const RESPONSE_HEADERS = [
  'content-type',
  'cache-control',
  'retry-after',
  'retry-after-ms',
  'x-should-retry',
  'request-id',
  'x-request-id',
];
/** The rate-limit headers each API sends, by prefix (the agents pace themselves by them). */
const RESPONSE_HEADER_PREFIXES = ['anthropic-ratelimit-', 'x-ratelimit-'];

/** What every call of one gateway shares. */
interface Gateway {
  readonly opts: Options;
  readonly upstream: URL;
  readonly agent: HttpAgent;
  readonly send: typeof httpRequest;
  readonly recorder: FlightRecorder;
  readonly budget: BodyBudget;
  readonly calls: RelayedCall[];
  readonly refusalsOf: WeakMap<Socket, number>;
  readonly flight: { inFlight: number; waiters: (() => void)[] };
  /** Wall time this gateway's calls waited behind the campaign's upstream limiter. */
  readonly queued: QueuedTime;
  /** What the host added that the container must never see (the key or token). */
  readonly secrets: readonly string[];
}

/**
 * Serves one run's model calls on a Unix socket: `POST` on the allowed paths (the Messages
 * API's by default) is forwarded to the one upstream with the real key added here, everything
 * else is refused; every call is one line of model-calls.jsonl, and with `record` its bodies
 * are kept too (the run's flight record, src/flight). The client is untrusted: its body is
 * capped and held within the memory budget, its headers filtered, its query dropped (but
 * `?beta=true`), refusals past the first few are only counted and a connection that keeps
 * being refused is closed; the upstream is bounded by an idle timeout and a response cap.
 * Responses stream through with backpressure: nothing is buffered past one chunk but what
 * the record keeps (within its cap and the budget).
 */
export async function startModelGateway(options: ModelGatewayOptions): Promise<ModelGateway> {
  const opts: Options = { ...DEFAULTS, ...options };
  checkOptions(opts);
  const upstream = new URL(opts.upstream.url);
  const secure = upstream.protocol === 'https:';
  const budget = new BodyBudget(opts.maxBodyMemory, options.budget);
  const secrets = opts.upstream.apiKey === undefined ? [] : [opts.upstream.apiKey];
  const g: Gateway = {
    opts,
    upstream,
    agent: secure ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true }),
    send: secure ? httpsRequest : httpRequest,
    recorder: new FlightRecorder({
      logPath: opts.logPath,
      ...(options.record ? { bodies: options.record } : {}),
      ...(options.caps ? { caps: options.caps } : {}),
      secrets,
      ...(options.needles ? { needles: options.needles } : {}),
      ...(options.prompts ? { prompts: options.prompts } : {}),
      budget,
    }),
    budget,
    calls: [],
    refusalsOf: new WeakMap(),
    flight: { inFlight: 0, waiters: [] },
    queued: new QueuedTime(),
    secrets,
  };
  const server = createServer((req, res) => handleCall(g, req, res));
  server.maxConnections = opts.maxConnections;
  server.requestTimeout = opts.requestTimeoutMs;
  server.headersTimeout = Math.min(opts.requestTimeoutMs, 60_000);
  const listening = await listen(server, {
    what: 'model gateway',
    where: { socketPath: opts.socketPath },
  }).catch((e: unknown) => {
    g.agent.destroy();
    throw e;
  });
  return gatewayHandle(g, listening);
}

function gatewayHandle(g: Gateway, listening: ListeningServer): ModelGateway {
  let closing: Promise<void> | undefined;
  return {
    socketPath: g.opts.socketPath,
    calls: () => [...g.calls],
    lastSeq: () => g.calls.reduce((m, c) => Math.max(m, c.seq), 0),
    settled: (timeoutMs = 10_000) =>
      g.flight.inFlight === 0
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, timeoutMs);
            g.flight.waiters.push(() => {
              clearTimeout(timer);
              resolve();
            });
          }),
    needlesSeen: () => g.recorder.needlesSeen(),
    unsearched: () => g.recorder.unsearched(),
    queuedMs: () => g.queued.ms(),
    flushed: () => g.recorder.flushed(),
    // Once, however often called: the record is written once.
    close: () =>
      (closing ??= (async () => {
        await listening.close();
        g.agent.destroy();
        await g.recorder.close();
      })()),
  };
}

/** One call from its arrival to its line in the log. */
interface CallState {
  readonly began: number;
  readonly time: string;
  readonly method: string;
  readonly path: string;
  readonly api: WireApi | null;
  readonly socket: Socket;
  seq: number;
  requestBytes: number;
  responseBytes: number;
  requestFacts: RequestFacts | null;
  requestRef: BodyRef | undefined;
  reader: ResponseReader | null;
  kept: Buffer[] | null;
  keptBytes: number;
  keptWhy: string | undefined;
  done: boolean;
  /** Counted among the calls in flight (until it ends, once). */
  flying: boolean;
  /** Its place at the upstream, when the campaign's limiter gave one. */
  ticket?: UpstreamTicket;
  /** Masks the host's secrets in what is relayed back (an upstream echoing them). */
  readonly scrubber: SecretScrubber;
}

function handleCall(g: Gateway, req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://gateway');
  const api = pathMatches(g.opts.paths, url.pathname) ? wireApiFor(url.pathname) : null;
  const call: CallState = {
    began: performance.now(),
    time: new Date().toISOString(),
    method: String(req.method).slice(0, 16),
    path: url.pathname.slice(0, 200),
    api,
    socket: req.socket,
    seq: 0,
    requestBytes: 0,
    responseBytes: 0,
    requestFacts: null,
    requestRef: undefined,
    reader: null,
    kept: [],
    keptBytes: 0,
    keptWhy: undefined,
    done: false,
    flying: false,
    scrubber: new SecretScrubber(g.secrets),
  };
  if (req.method !== 'POST' || api === null) {
    const only = g.opts.paths.join(', ');
    refuse(
      g,
      call,
      req,
      res,
      403,
      'permission_error',
      `evalrig's model gateway forwards only POST ${only}`,
    );
    return;
  }
  if (g.recorder.full()) {
    const max = g.recorder.caps.maxCalls;
    refuse(
      g,
      call,
      req,
      res,
      429,
      'rate_limit_error',
      `the run's limit of ${max} model calls is reached`,
    );
    return;
  }
  const barred = g.opts.admit?.();
  if (barred !== undefined) {
    refuse(g, call, req, res, 403, 'permission_error', barred);
    return;
  }
  call.flying = true;
  g.flight.inFlight++;
  // However the request ends (a client gone mid-body included), it leaves the flight once.
  req.once('close', () => {
    if (call.seq === 0) endFlight(g, call);
  });
  readBody(g, call, req, res, url);
}

/**
 * Answers a refusal itself, logs it among the first few (the rest are counted), and closes a
 * connection refused too often in a row, so that a flood costs a reconnection each time.
 */
function refuse(
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

function refused(reason: string): ResponseFacts & { seq: number } {
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

/**
 * Reads the request body within its cap and the memory budget (a declared length is taken
 * from the budget at once, or refused before anything is read), then forwards it. The body
 * holds its share of the budget until the upstream has taken it whole.
 */
function readBody(
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

/** A refused request's body up to this is read and dropped, keeping its connection; larger closes it. */
const DRAINED_BYTES = 64 * 1024;

/**
 * Numbers a whole request (or refuses it past the run's call limit), forwards its body, then
 * lets the witness read and keep it. `release` gives the body's memory back once the upstream
 * has taken it (or the request ended).
 */
function sendBody(
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
function queueCall(
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

const MEMORY_FULL = "the host's memory for request bodies is full; retry in a moment";

/** A declared content length, or null when absent or not a length. */
function lengthOf(header: string | undefined): number | null {
  if (header === undefined || !/^\d{1,15}$/u.test(header)) return null;
  return Number(header);
}

function upstreamHeaders(
  g: Gateway,
  req: IncomingMessage,
  length: number,
  api: WireApi,
): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = { 'content-length': length };
  for (const name of REQUEST_HEADERS) {
    const v = req.headers[name];
    if (typeof v === 'string') headers[name] = v;
  }
  const key = g.opts.upstream.apiKey;
  const auth = g.opts.upstream.auth ?? api.auth;
  if (key !== undefined) Object.assign(headers, keyHeader(auth, key));
  if (key !== undefined && auth === 'oauth') {
    headers['anthropic-beta'] = withBeta(headers['anthropic-beta'] as string | undefined);
  }
  return headers;
}

/**
 * The beta Claude Code adds to every request it signs with a subscription's OAuth token
 * (checked in the strings of its 2.1.332 binary: `oauth_auth`, sent when it is a subscriber).
 * The agent in the container holds a placeholder key, so it never sends it itself.
 */
export const OAUTH_BETA = 'oauth-2025-04-20';

/** The client's `anthropic-beta` list with the OAuth beta in it (once). */
export function withBeta(client: string | undefined): string {
  const betas = (client ?? '')
    .split(',')
    .map((b) => b.trim())
    .filter((b) => b !== '');
  return [...new Set([...betas, OAUTH_BETA])].join(',');
}

/** The key in the header its API reads (the client's own key header was never passed on). */
export function keyHeader(auth: UpstreamAuth, key: string): Record<string, string> {
  switch (auth) {
    case 'bearer':
    case 'oauth':
      return { authorization: `Bearer ${key}` };
    case 'x-goog-api-key':
      return { 'x-goog-api-key': key };
    case 'x-api-key':
      return { 'x-api-key': key };
  }
}

/**
 * The query passed upstream: only the parameters the API names (Gemini's `alt=sse`) and
 * Claude Code's `?beta=true`; anything else (a `key=` above all) is dropped.
 */
export function upstreamQuery(api: WireApi, url: URL): string {
  if (url.search === '?beta=true') return '?beta=true';
  const kept = new URLSearchParams();
  for (const name of api.query ?? []) {
    const v = url.searchParams.get(name);
    if (v !== null && /^[a-z]{1,16}$/u.test(v)) kept.set(name, v);
  }
  const q = kept.toString();
  return q === '' ? '' : `?${q}`;
}

/**
 * The upstream path of a call: the API's path under the upstream's base path. A base that ends
 * in the version the path starts with (`/openai/v1`, as OpenAI-compatible base URLs are given)
 * does not repeat it: `/openai/v1` + `/v1/responses` is `/openai/v1/responses`.
 *
 * @example
 * upstreamPath('/', '/v1/messages'); // '/v1/messages'
 * upstreamPath('/api/v1', '/v1/responses'); // '/api/v1/responses'
 */
export function upstreamPath(base: string, apiPath: string): string {
  const last = base.replace(/\/+$/u, '').split('/').pop() ?? '';
  const [, first = '', ...rest] = apiPath.split('/');
  const repeated = /^v\d+[a-z0-9]*$/u.test(last) && first === last;
  return path.posix.join(base, repeated ? rest.join('/') : apiPath);
}

/** Opens the upstream request (sent by the caller) and relays its answer. */
function forward(
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
function relay(
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

/** The headers passed back, each value masked (a name holding a secret is dropped). */
function responseHeaders(upRes: IncomingMessage, scrubber: SecretScrubber): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, v] of Object.entries(upRes.headers)) {
    const passed =
      RESPONSE_HEADERS.includes(name) || RESPONSE_HEADER_PREFIXES.some((p) => name.startsWith(p));
    if (!passed || typeof v !== 'string' || scrubber.text(name) !== name) continue;
    out[name] = scrubber.text(v).slice(0, 1000);
  }
  return out;
}

/** Keeps a response chunk for the record, within its cap and the memory budget. */
function keepChunk(g: Gateway, call: CallState, chunk: Buffer): void {
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

function dropKept(g: Gateway, call: CallState): void {
  g.budget.give(call.keptBytes);
  call.kept = null;
  call.keptBytes = 0;
}

/** The gateway's own answer when the upstream failed before answering. */
function answerError(
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
function finish(
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

function endFlight(g: Gateway, call: CallState): void {
  if (!call.flying) return;
  call.flying = false;
  g.flight.inFlight = Math.max(0, g.flight.inFlight - 1);
  if (g.flight.inFlight === 0) for (const w of g.flight.waiters.splice(0)) w();
}

/** Logs one call (its line) and keeps it in memory with its texts for the witness. */
function record(
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

function checkOptions(o: Options): void {
  checkServerOptions('model gateway', o, [
    'maxRequestBytes',
    'maxResponseBytes',
    'maxKeptResponseBytes',
    'maxBodyMemory',
    'idleTimeoutMs',
    'requestTimeoutMs',
    'maxConnections',
    'maxRefusalsPerConnection',
  ]);
  let url: URL;
  try {
    url = new URL(o.upstream.url);
  } catch {
    throw new EvalrigError(`model gateway: the upstream ${o.upstream.url} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new EvalrigError(
      `model gateway: the upstream must be http or https, not ${url.protocol}`,
    );
  }
  if (url.username || url.password || url.search) {
    throw new EvalrigError(
      'model gateway: the upstream URL may not hold credentials or a query (give apiKey)',
    );
  }
}
