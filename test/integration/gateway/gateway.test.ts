import { expect } from 'chai';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  startModelGateway,
  type ModelCall,
  type ModelGateway,
  type ModelGatewayOptions,
} from '../../../src/gateway/index.js';
import { startModelStandIn, type ModelStandIn } from '../../../src/model-stand-in/index.js';

import { call, fakeUpstream, PLACEHOLDER } from '../../support/gateway.js';

const REAL_KEY = 'sk-real-key-0123456789abcdef';

const ASK = JSON.stringify({
  model: 'm-1',
  max_tokens: 10,
  stream: true,
  messages: [{ role: 'user', content: 'hi' }],
});

describe('model gateway', () => {
  let dir: string;
  let socketPath: string;
  let logPath: string;
  let gateway: ModelGateway | undefined;
  let standIn: ModelStandIn | undefined;
  let upstream: Server | undefined;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'evalrig-gateway-'));
    await mkdir(path.join(dir, 'model'), { mode: 0o711 });
    socketPath = path.join(dir, 'model', 'model.sock');
    logPath = path.join(dir, 'model-calls.jsonl');
  });
  afterEach(async () => {
    await gateway?.close();
    await standIn?.close();
    upstream?.closeAllConnections();
    await new Promise<void>((resolve) => (upstream ? upstream.close(() => resolve()) : resolve()));
    gateway = standIn = upstream = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  /** A fake upstream answering as told, behind a gateway on this test's socket and log. */
  const behindGateway = async (
    answer: Parameters<typeof fakeUpstream>[0],
    options: Omit<ModelGatewayOptions, 'socketPath' | 'logPath' | 'upstream'> & {
      upstream?: Omit<ModelGatewayOptions['upstream'], 'url'>;
    } = {},
  ) => {
    const up = await fakeUpstream(answer);
    upstream = up.server;
    gateway = await startModelGateway({
      socketPath,
      logPath,
      ...options,
      upstream: { url: up.url, ...options.upstream },
    });
    return up;
  };

  const logged = async (): Promise<ModelCall[]> => {
    await gateway!.flushed();
    return (await readFile(logPath, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as ModelCall);
  };

  it('streams a model call through to the stand-in unchanged and logs its model, status, bytes and tokens', async () => {
    standIn = await startModelStandIn({
      script: {
        responses: [
          {
            content: [{ text: 'hello' }, { tool_use: { name: 'Bash', input: { command: 'ls' } } }],
            usage: {
              input_tokens: 900,
              output_tokens: 31,
              cache_read_input_tokens: 40,
              cache_creation_input_tokens: 8,
            },
          },
        ],
      },
      listen: { port: 0 },
    });
    gateway = await startModelGateway({ socketPath, upstream: { url: standIn.url }, logPath });
    const answer = await call(socketPath, 'POST', '/v1/messages?beta=true', ASK);
    expect(answer.status).to.equal(200);
    expect(answer.headers['content-type']).to.equal('text/event-stream');
    expect(answer.body).to.match(/^event: message_start\n/);
    expect(answer.body).to.match(/event: message_stop\ndata: \{"type":"message_stop"\}\n\n$/);
    const [line] = await logged();
    expect(line).to.deep.include({
      method: 'POST',
      path: '/v1/messages',
      model: 'm-1',
      status: 200,
      requestBytes: Buffer.byteLength(ASK),
      responseBytes: Buffer.byteLength(answer.body),
    });
    expect(line!.tokens).to.deep.equal({ input: 900, output: 31, cacheRead: 40, cacheWrite: 8 });
    expect(line!.latencyMs).to.be.a('number');
    expect(line).to.not.have.property('problem');
  });

  it("drops an idle upstream connection before the upstream's announced keep-alive ends: a call after the wait is never sent on a socket being closed", async function () {
    this.timeout(15_000);
    const answer = JSON.stringify({
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'm-1',
      content: [{ type: 'text', text: 'ok' }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 1, output_tokens: 1 },
    });
    const up = await behindGateway((_r, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(answer),
    );
    // Node's server keeps an idle connection 5 s and says so (Keep-Alive: timeout=5).
    expect(up.server.keepAliveTimeout).to.equal(5000);
    let connections = 0;
    up.server.on('connection', () => connections++);
    const ask = JSON.stringify({ ...JSON.parse(ASK), stream: false });
    expect((await call(socketPath, 'POST', '/v1/messages', ask)).status).to.equal(200);
    // Past the gateway's own bound (a second before the server's), short of the server's.
    await new Promise((resolve) => setTimeout(resolve, 4500));
    expect((await call(socketPath, 'POST', '/v1/messages', ask)).status).to.equal(200);
    expect(connections, 'the second call on a connection of its own').to.equal(2);
    expect(up.seen).to.have.length(2);
  });

  it('refuses every other path and method with 403, logs it, and sends nothing upstream', async () => {
    const up = await behindGateway((_r, res) => res.end('{}'));
    const tries: [string, string][] = [
      ['GET', '/v1/models'],
      ['POST', '/v1/messages/count_tokens'],
      ['POST', '/v1/complete'],
      ['GET', '/v1/messages'],
      ['POST', '/api/event_logging/batch'],
    ];
    for (const [method, p] of tries) {
      const answer = await call(socketPath, method, p, method === 'POST' ? ASK : '');
      expect(answer.status, `${method} ${p}`).to.equal(403);
      expect(answer.headers['x-should-retry']).to.equal('false');
      expect(JSON.parse(answer.body).error.type).to.equal('permission_error');
    }
    expect(up.seen).to.deep.equal([]);
    const lines = await logged();
    expect(lines.map((l) => [l.method, l.path, l.status])).to.deep.equal(
      tries.map(([m, p]) => [m, p, 403]),
    );
    expect(lines[0]!.problem).to.equal("evalrig's model gateway forwards only POST /v1/messages");
  });

  it('adds the real key on the host side; the client never sees it, in headers, body or log', async () => {
    const up = await behindGateway(
      (r, res) => {
        // An upstream that echoes the key in headers: the gateway passes only its listed headers.
        res.writeHead(200, {
          'content-type': 'application/json',
          'x-echo-key': String(r.headers['x-api-key']),
          'set-cookie': `k=${String(r.headers['x-api-key'])}`,
        });
        res.end(JSON.stringify({ type: 'message', usage: { input_tokens: 3, output_tokens: 2 } }));
      },
      { upstream: { apiKey: REAL_KEY } },
    );
    const answer = await call(socketPath, 'POST', '/v1/messages?beta=true&x=1', ASK, {
      authorization: `Bearer ${PLACEHOLDER}`,
      cookie: 'c=1',
      'anthropic-version': '2023-06-01',
    });
    expect(answer.status).to.equal(200);
    const [seen] = up.seen;
    expect(seen!.headers['x-api-key']).to.equal(REAL_KEY);
    expect(seen!.headers).to.not.have.property('authorization');
    expect(seen!.headers).to.not.have.property('cookie');
    expect(seen!.headers['anthropic-version']).to.equal('2023-06-01');
    expect(seen!.url).to.equal('/v1/messages'); // a query other than beta=true is dropped
    expect(JSON.stringify(answer.headers)).to.not.contain(REAL_KEY);
    expect(answer.body).to.not.contain(REAL_KEY);
    await gateway!.flushed();
    const log = await readFile(logPath, 'utf8');
    expect(log).to.not.contain(REAL_KEY);
    expect(JSON.parse(log).tokens).to.deep.equal({
      input: 3,
      output: 2,
      cacheRead: null,
      cacheWrite: null,
    });
  });

  it('sends the key as a bearer token for the Responses API', async () => {
    const up = await behindGateway((_r, res) => res.end('{}'), {
      upstream: { apiKey: REAL_KEY, auth: 'bearer' },
      paths: ['/v1/responses'],
    });
    expect((await call(socketPath, 'POST', '/v1/responses', ASK)).status).to.equal(200);
    expect((await call(socketPath, 'POST', '/v1/messages', ASK)).status).to.equal(403);
    expect(
      up.seen.map((s) => [s.url, s.headers.authorization, s.headers['x-api-key']]),
    ).to.deep.equal([['/v1/responses', `Bearer ${REAL_KEY}`, undefined]]);
  });

  it("adds each API's own key header and forwards only its own paths (Chat Completions, Gemini)", async () => {
    const up = await behindGateway((_r, res) => res.end('{}'), {
      upstream: { apiKey: REAL_KEY },
      paths: ['/v1/chat/completions', '/v1beta/models/{model}:streamGenerateContent'],
    });
    const gemini = '/v1beta/models/gemini-2.5-pro:streamGenerateContent';
    expect((await call(socketPath, 'POST', '/v1/chat/completions', ASK)).status).to.equal(200);
    const ok = await call(socketPath, 'POST', `${gemini}?alt=sse&key=${PLACEHOLDER}`, ASK);
    expect(ok.status).to.equal(200);
    for (const refused of [
      '/v1/messages',
      '/v1/responses',
      '/v1beta/models/gemini-2.5-pro:generateContent',
      '/v1beta/models/a/b:streamGenerateContent',
      '/v1beta/models/gemini-2.5-pro:countTokens',
      '/v1beta/files',
    ]) {
      expect((await call(socketPath, 'POST', refused, ASK)).status, refused).to.equal(403);
    }
    const heads = up.seen.map((s) => [
      s.url,
      s.headers.authorization,
      s.headers['x-goog-api-key'],
      s.headers['x-api-key'],
    ]);
    expect(heads).to.deep.equal([
      ['/v1/chat/completions', `Bearer ${REAL_KEY}`, undefined, undefined],
      [`${gemini}?alt=sse`, undefined, REAL_KEY, undefined],
    ]);
    const lines = await logged();
    expect(lines.map((l) => [l.api, l.status])).to.deep.equal([
      ['chat', 200],
      ['gemini', 200],
      ...Array.from({ length: 6 }, () => [null, 403]),
    ]);
  });

  it('cuts an upstream that never answers at the idle bound: 504, logged', async () => {
    await behindGateway(() => undefined, { idleTimeoutMs: 300 }); // takes the request, answers nothing
    const began = performance.now();
    const answer = await call(socketPath, 'POST', '/v1/messages', ASK);
    const took = performance.now() - began;
    expect(answer.status).to.equal(504);
    expect(answer.headers['x-should-retry']).to.equal('true');
    expect(took).to.be.within(290, 5000);
    const [line] = await logged();
    expect(line).to.deep.include({ status: 504, problem: 'the upstream sent nothing for 300 ms' });
  });

  it('cuts a stream that stalls midway: the client sees the connection end, the log names why', async () => {
    await behindGateway(
      (_r, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(
          'event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":5}}}\n\n',
        );
        // …and nothing more.
      },
      { idleTimeoutMs: 300 },
    );
    const answer = await call(socketPath, 'POST', '/v1/messages', ASK);
    expect(answer.status).to.equal(200);
    expect(answer.error).to.be.a('string');
    const [line] = await logged();
    expect(line).to.deep.include({ status: 200, problem: 'the upstream sent nothing for 300 ms' });
  });

  it('refuses a request body over its cap with 413 and sends nothing upstream', async () => {
    const up = await behindGateway((_r, res) => res.end('{}'), { maxRequestBytes: 1000 });
    const answer = await call(socketPath, 'POST', '/v1/messages', 'x'.repeat(50_000));
    expect(answer.status).to.equal(413);
    expect(up.seen).to.deep.equal([]);
    const [line] = await logged();
    expect(line).to.deep.include({ status: 413, problem: 'request body over 1000 bytes' });
  });

  it('answers 502 when the upstream cannot be reached, naming no key', async () => {
    const up = await fakeUpstream((_r, res) => res.end());
    const url = up.url;
    await new Promise<void>((resolve) => up.server.close(() => resolve())); // nothing listens now
    gateway = await startModelGateway({ socketPath, upstream: { url, apiKey: REAL_KEY }, logPath });
    const answer = await call(socketPath, 'POST', '/v1/messages', ASK);
    expect(answer.status).to.equal(502);
    expect(answer.body).to.contain('ECONNREFUSED').and.not.contain(REAL_KEY);
  });

  it('logs the tokens of a streamed Responses API call in the one convention: input without the cached part', async () => {
    standIn = await startModelStandIn({
      script: {
        responses: [
          {
            content: [{ text: 'hi' }],
            usage: { input_tokens: 70, output_tokens: 9, cache_read_input_tokens: 30 },
          },
        ],
      },
      listen: { port: 0 },
    });
    gateway = await startModelGateway({
      socketPath,
      upstream: { url: standIn.url, apiKey: REAL_KEY, auth: 'bearer' },
      paths: ['/v1/responses'],
      logPath,
    });
    const answer = await call(
      socketPath,
      'POST',
      '/v1/responses',
      JSON.stringify({ model: 'gpt-x', stream: true, input: 'hi' }),
    );
    expect(answer.status).to.equal(200);
    const [line] = await logged();
    expect(line).to.deep.include({ path: '/v1/responses', model: 'gpt-x', status: 200 });
    // The API's input_tokens (100) count the 30 cached ones; evalrig's input does not.
    expect(line!.tokens).to.deep.equal({ input: 70, output: 9, cacheRead: 30, cacheWrite: 0 });
    expect(line).to.deep.include({ api: 'responses', outcome: 'complete', reason: null });
  });

  it('refuses an upstream URL holding credentials', async () => {
    let error: unknown;
    try {
      await startModelGateway({
        socketPath,
        upstream: { url: 'https://u:p@example.invalid' },
        logPath,
      });
    } catch (e) {
      error = e;
    }
    expect(String(error)).to.contain('may not hold credentials');
  });
});
