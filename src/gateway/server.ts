import { appendFile, chmod, unlink } from 'node:fs/promises';
import {
  Agent as HttpAgent,
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type ServerResponse,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import path from 'node:path';
import { EvalrigError } from '../errors/index.js';
import { checkServerOptions, makeSocketRoom } from '../host-socket/index.js';
import type { ModelCall, ModelGateway, ModelGatewayOptions } from './types.js';
import { NO_TOKENS, UsageScanner, type CallTokens } from './usage.js';

const DEFAULTS = {
  paths: ['/v1/messages'] as readonly string[],
  maxRequestBytes: 32 * 1024 * 1024,
  maxResponseBytes: 64 * 1024 * 1024,
  idleTimeoutMs: 300_000,
  requestTimeoutMs: 60_000,
  maxConnections: 16,
};

/** Request headers passed on; everything else (the client's key above all) is dropped. */
const REQUEST_HEADERS = [
  'content-type',
  'accept',
  'anthropic-version',
  'anthropic-beta',
  'openai-beta',
  'user-agent',
];
/** Response headers passed back: what the clients need to stream and to retry well. */
const RESPONSE_HEADERS = [
  'content-type',
  'cache-control',
  'retry-after',
  'x-should-retry',
  'request-id',
  'x-request-id',
];

/**
 * Serves one run's model calls on a Unix socket: `POST` on the allowed paths (the Messages
 * API's by default) is forwarded to the one upstream with the real key added here, everything
 * else is answered 403; every request, refused or not, is one line of model-calls.jsonl.
 * The client is untrusted: its body is capped, its headers filtered, its query dropped (but
 * `?beta=true`), and the upstream is bounded by an idle timeout and a response cap. Responses
 * stream through with backpressure: nothing is buffered past one chunk.
 */
export async function startModelGateway(options: ModelGatewayOptions): Promise<ModelGateway> {
  const opts = { ...DEFAULTS, ...options };
  checkOptions(opts);
  const upstream = new URL(opts.upstream.url);
  const secure = upstream.protocol === 'https:';
  const agent = secure ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  const send = secure ? httpsRequest : httpRequest;
  await makeSocketRoom('model gateway', opts.socketPath);

  const calls: ModelCall[] = [];
  let log = Promise.resolve();
  const record = (call: ModelCall): void => {
    if (calls.length < 100_000) calls.push(call);
    const line = `${JSON.stringify(call)}\n`;
    log = log.then(() => appendFile(opts.logPath, line, { mode: 0o600 })).catch(() => undefined);
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const began = performance.now();
    const time = new Date().toISOString();
    const url = new URL(req.url ?? '/', 'http://gateway');
    const base = {
      time,
      method: String(req.method).slice(0, 16),
      path: url.pathname.slice(0, 200),
    };
    let requestBytes = 0;
    let responseBytes = 0;
    let model: string | null = null;
    let tokens: CallTokens = NO_TOKENS;
    let done = false;
    const finish = (status: number, problem?: string): void => {
      if (done) return;
      done = true;
      const latencyMs = Math.round((performance.now() - began) * 100) / 100;
      record({
        ...base,
        model,
        status,
        requestBytes,
        responseBytes,
        latencyMs,
        tokens,
        ...(problem ? { problem } : {}),
      });
    };
    const answer = (status: number, type: string, message: string): void => {
      const body = JSON.stringify({ type: 'error', error: { type, message } });
      responseBytes = Buffer.byteLength(body);
      res.writeHead(status, {
        'content-type': 'application/json',
        'content-length': responseBytes,
        // A refusal (403, 413) is final; an upstream that failed (502, 504) may be retried.
        'x-should-retry': status < 500 ? 'false' : 'true',
      });
      res.end(body);
      finish(status, message);
    };

    if (req.method !== 'POST' || !opts.paths.includes(url.pathname)) {
      req.resume(); // drained, not kept
      answer(
        403,
        'permission_error',
        `evalrig's model gateway forwards only POST ${opts.paths.join(', ')}`,
      );
      return;
    }
    const chunks: Buffer[] = [];
    let over = false;
    req.on('data', (c: Buffer) => {
      requestBytes += c.length;
      if (requestBytes > opts.maxRequestBytes && !over) {
        over = true;
        chunks.length = 0;
        answer(413, 'request_too_large', `request body over ${opts.maxRequestBytes} bytes`);
        req.resume();
      }
      if (!over) chunks.push(c);
    });
    req.on('error', () => finish(400, 'the client broke off its request'));
    req.on('end', () => {
      if (over) return;
      const body = Buffer.concat(chunks);
      chunks.length = 0;
      model = modelOf(body);
      forward(body);
    });

    const forward = (body: Buffer): void => {
      const headers: OutgoingHttpHeaders = { 'content-length': body.length };
      for (const name of REQUEST_HEADERS) {
        const v = req.headers[name];
        if (typeof v === 'string') headers[name] = v;
      }
      const key = opts.upstream.apiKey;
      if (key !== undefined) {
        if (opts.upstream.auth === 'bearer') headers.authorization = `Bearer ${key}`;
        else headers['x-api-key'] = key;
      }
      const target = new URL(upstream.href);
      target.pathname = path.posix.join(upstream.pathname, url.pathname);
      target.search = url.search === '?beta=true' ? '?beta=true' : '';
      const up = send(target, { method: 'POST', headers, agent });
      let idle: NodeJS.Timeout | undefined;
      const cut = (status: number, problem: string): void => {
        up.destroy();
        if (!res.headersSent) answer(status, 'api_error', problem);
        else {
          res.destroy();
          finish(res.statusCode, problem);
        }
      };
      const arm = (): void => {
        clearTimeout(idle);
        idle = setTimeout(
          () => cut(504, `the upstream sent nothing for ${opts.idleTimeoutMs} ms`),
          opts.idleTimeoutMs,
        );
      };
      arm();
      res.on('close', () => {
        clearTimeout(idle);
        if (!res.writableFinished) {
          up.destroy();
          finish(res.headersSent ? res.statusCode : 499, 'the client went away');
        }
      });
      up.on('error', (e) => {
        clearTimeout(idle);
        // The message names the failure, never the key (it is in no URL or error).
        if (!done) cut(502, `the upstream failed: ${e.message.slice(0, 200)}`);
      });
      up.on('response', (upRes) => {
        arm();
        const status = upRes.statusCode ?? 502;
        const out: OutgoingHttpHeaders = {};
        for (const name of RESPONSE_HEADERS) {
          const v = upRes.headers[name];
          if (typeof v === 'string') out[name] = v;
        }
        res.writeHead(status, out);
        const scanner = new UsageScanner(
          String(upRes.headers['content-type']).startsWith('text/event-stream'),
        );
        upRes.on('data', (chunk: Buffer) => {
          arm();
          responseBytes += chunk.length;
          if (responseBytes > opts.maxResponseBytes) {
            upRes.destroy();
            cut(502, `the upstream's response passed ${opts.maxResponseBytes} bytes`);
            return;
          }
          scanner.push(chunk);
          if (!res.write(chunk)) {
            upRes.pause(); // backpressure: the client's pace, not a growing buffer
            res.once('drain', () => upRes.resume());
          }
        });
        upRes.on('end', () => {
          clearTimeout(idle);
          if (done) return;
          tokens = scanner.end();
          res.end();
          finish(status);
        });
        upRes.on('error', () => undefined); // 'close' on res or the idle bound ends the call
      });
      up.end(body);
    };
  };

  const server = createServer(handle);
  server.maxConnections = opts.maxConnections;
  server.requestTimeout = opts.requestTimeoutMs;
  server.headersTimeout = Math.min(opts.requestTimeoutMs, 60_000);
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e) =>
      reject(new EvalrigError(`model gateway: cannot listen on ${opts.socketPath} (${e.message})`)),
    );
    server.listen(opts.socketPath, () => resolve());
  });
  // The container's user (uid 1000) connects through the mounted folder.
  await chmod(opts.socketPath, 0o666);

  return {
    socketPath: opts.socketPath,
    calls: () => [...calls],
    flushed: () => log,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      agent.destroy();
      await log;
      await unlink(opts.socketPath).catch(() => undefined);
    },
  };
}

/** The request's `model` (capped), or null; the body is untrusted. */
function modelOf(body: Buffer): string | null {
  try {
    const v = JSON.parse(body.toString('utf8')) as { model?: unknown };
    return typeof v.model === 'string' ? v.model.slice(0, 200) : null;
  } catch {
    return null;
  }
}

function checkOptions(o: typeof DEFAULTS & ModelGatewayOptions): void {
  checkServerOptions('model gateway', o, [
    'maxRequestBytes',
    'maxResponseBytes',
    'idleTimeoutMs',
    'requestTimeoutMs',
    'maxConnections',
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
