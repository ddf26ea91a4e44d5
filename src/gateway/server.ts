import {
  createServer,
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { EvalrigError } from '../errors/index.js';
import { FlightRecorder, pathMatches, wireApiFor } from '../flight/index.js';
import { checkServerOptions, listen, type ListeningServer } from '../host-server/index.js';
import { readBody } from './body.js';
import { BodyBudget } from './budget.js';
import { endFlight } from './call-end.js';
import { QueuedTime } from './limiter.js';
import { refuse } from './refuse.js';
import { SecretScrubber } from './scrub.js';
import { DEFAULTS, type CallState, type Gateway, type Options } from './state.js';
import type { ModelGateway, ModelGatewayOptions } from './types.js';

export {
  OAUTH_BETA,
  keyHeader,
  upstreamPath,
  upstreamQuery,
  withBeta,
} from './upstream-request.js';

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
/**
 * Idle upstream connections are reused, but not past what the upstream said it keeps them
 * (`Keep-Alive: timeout=N`): with a timeout set, Node's agent drops an idle socket a second
 * before the server's. Without one it reuses a socket the server is closing, and a call sent
 * at that moment fails as a 502 the upstream never saw (an agent that backs off 5 s after a
 * 429 meets Node's own 5 s exactly). Active requests are not bounded by it.
 */
const KEEP_ALIVE = { keepAlive: true, timeout: 60_000 } as const;

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
    agent: secure ? new HttpsAgent(KEEP_ALIVE) : new HttpAgent(KEEP_ALIVE),
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
