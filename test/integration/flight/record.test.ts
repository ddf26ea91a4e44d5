/**
 * A run's flight record as its gateway writes it, read back through the one reader: the
 * bodies rebuilt, the key never written, the rate-limit headers passed on, and every cap
 * holding under abuse (a flood of refused requests, oversized bodies on many connections,
 * more calls and bytes than the record keeps).
 */
import { expect } from 'chai';
import { mkdir, mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { Agent, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { flightFiles, readRunFlight } from '../../../src/campaign-folder/index.js';
import {
  BodyBudget,
  startModelGateway,
  type ModelGateway,
  type ModelGatewayOptions,
} from '../../../src/gateway/index.js';
import {
  startModelStandIn,
  type ModelScript,
  type ModelStandIn,
} from '../../../src/model-stand-in/index.js';
import { call, fakeUpstream } from '../../support/gateway.js';

const REAL_KEY = 'sk-ant-witness-key-5e1d0c9b8a7f';

/** A Claude Code-like request: the same system prompt and tools, a history of `n` exchanges. */
function ask(n: number, extra = ''): string {
  const messages = [];
  for (let i = 0; i < n; i++) {
    messages.push({ role: 'user', content: `step ${i}: ${'u'.repeat(600)}${extra}` });
    messages.push({
      role: 'assistant',
      content: [{ type: 'text', text: `done ${i} ${'a'.repeat(600)}` }],
    });
  }
  messages.push({ role: 'user', content: `next ${extra}` });
  return JSON.stringify({
    model: 'claude-opus-5-5',
    max_tokens: 100,
    stream: true,
    system: [{ type: 'text', text: 'You are a coding agent. '.repeat(300) }],
    tools: [{ name: 'Bash', description: 'Runs a command. '.repeat(50), input_schema: {} }],
    messages,
  });
}

const answer = (text: string) => ({
  content: [{ text }],
  usage: { input_tokens: 10, output_tokens: 2 },
});

describe('flight record: what a run gateway keeps, and the caps that hold', function () {
  this.timeout(60_000);
  let dir: string;
  let socketPath: string;
  let gateway: ModelGateway | undefined;
  let standIn: ModelStandIn | undefined;
  let upstream: Server | undefined;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'evalrig-flight-'));
    await mkdir(path.join(dir, 'model'), { mode: 0o711 });
    socketPath = path.join(dir, 'model', 'model.sock');
  });
  afterEach(async () => {
    await gateway?.close();
    await standIn?.close();
    upstream?.closeAllConnections();
    await new Promise<void>((resolve) => (upstream ? upstream.close(() => resolve()) : resolve()));
    gateway = standIn = upstream = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  /** A gateway keeping the record in `dir`, before `url` (default: a stand-in playing `script`). */
  const open = async (
    script: ModelScript,
    options: Partial<ModelGatewayOptions> & { url?: string } = {},
  ): Promise<ModelGateway> => {
    if (!options.url) standIn = await startModelStandIn({ script, listen: { port: 0 } });
    const files = flightFiles(dir);
    gateway = await startModelGateway({
      socketPath,
      logPath: files.calls,
      record: { blocksPath: files.blocks, manifestPath: files.manifest },
      ...options,
      upstream: { url: options.url ?? standIn!.url, apiKey: REAL_KEY },
    });
    return gateway;
  };

  /** Every byte the record wrote, its compressed blocks unpacked. */
  const everything = async (): Promise<string> => {
    const names = await readdir(dir);
    const texts = await Promise.all(
      names
        .filter((n) => n !== 'model')
        .map(async (n) => {
          const bytes = await readFile(path.join(dir, n));
          return n.endsWith('.gz') ? gunzipSync(bytes).toString() : bytes.toString();
        }),
    );
    return texts.join('\n');
  };

  it('keeps each request and response whole, read back through the one reader, the repeated history stored once', async () => {
    const script = { responses: Array.from({ length: 12 }, (_, i) => answer(`answer ${i}`)) };
    const g = await open(script);
    const sent: string[] = [];
    const received: string[] = [];
    for (let n = 0; n < 12; n++) {
      sent.push(ask(n));
      const a = await call(socketPath, 'POST', '/v1/messages', sent[n]);
      expect(a.status).to.equal(200);
      received.push(a.body);
    }
    await g.close();
    gateway = undefined;
    const record = await readRunFlight(dir);
    expect(record.calls.map((c) => c.seq)).to.deep.equal([...Array(12).keys()].map((i) => i + 1));
    record.calls.forEach((c, i) => {
      expect(record.request(c)).to.deep.equal(JSON.parse(sent[i]!));
      expect(record.responseText(c)).to.equal(received[i]);
      expect(record.responseFacts(c)!.texts).to.deep.equal([`answer ${i}`]);
      expect(c.request).to.not.have.property('exact');
    });
    const manifest = record.manifest!;
    expect(manifest.calls).to.equal(12);
    expect(manifest.bodies.request_bytes).to.equal(sent.reduce((n, s) => n + s.length, 0));
    // Twelve requests each resending the history: kept once, compressed.
    expect(manifest.bodies.bytes).to.be.below(manifest.bodies.request_bytes / 10);
    expect((await stat(flightFiles(dir).blocks)).size).to.equal(manifest.bodies.bytes);
  });

  it('never writes the upstream key: not in a header, not echoed in a body, an answer or an error', async () => {
    const up = await fakeUpstream((req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      // An upstream that echoes what it got, the key included (a proxy's error might).
      const said = `bad key ${String(req.headers['x-api-key'])} in ${req.body.slice(0, 40)}`;
      res.end(
        JSON.stringify({ type: 'error', error: { type: `invalid ${REAL_KEY}`, message: said } }),
      );
    });
    upstream = up.server;
    const g = await open({ responses: [] }, { url: up.url });
    // The request itself holds the key (an agent given it by mistake).
    const a = await call(
      socketPath,
      'POST',
      '/v1/messages',
      JSON.stringify({ key: REAL_KEY, messages: [] }),
    );
    expect(a.status).to.equal(400);
    expect(up.seen[0]!.headers['x-api-key']).to.equal(REAL_KEY);
    await g.close();
    gateway = undefined;
    const written = await everything();
    expect(written).to.contain('[evalrig: the upstream key was here]');
    expect(written).to.not.contain(REAL_KEY);
    expect(written).to.not.match(/x-api-key|authorization/iu);
    const [line] = (await readRunFlight(dir)).calls;
    expect(line).to.deep.include({ outcome: 'error', status: 400 });
    expect(line!.request).to.deep.include({ scrubbed: true });
  });

  it('passes on the rate-limit headers an agent paces itself by, and nothing else the upstream sets', async () => {
    const up = await fakeUpstream((_req, res) => {
      res.writeHead(429, {
        'content-type': 'application/json',
        'retry-after': '2',
        'retry-after-ms': '1500',
        'anthropic-ratelimit-requests-remaining': '0',
        'anthropic-ratelimit-tokens-reset': '2026-12-01T00:00:00Z',
        'x-ratelimit-remaining-tokens': '1000',
        'set-cookie': 'session=x',
      });
      res.end(
        JSON.stringify({ type: 'error', error: { type: 'rate_limit_error', message: 'slow' } }),
      );
    });
    upstream = up.server;
    await open({ responses: [] }, { url: up.url });
    const a = await call(socketPath, 'POST', '/v1/messages', ask(0));
    expect(a.headers).to.include({
      'retry-after': '2',
      'retry-after-ms': '1500',
      'anthropic-ratelimit-requests-remaining': '0',
      'anthropic-ratelimit-tokens-reset': '2026-12-01T00:00:00Z',
      'x-ratelimit-remaining-tokens': '1000',
    });
    expect(a.headers).to.not.have.property('set-cookie');
  });

  it('records a stream the upstream ends with an error event as cut, with its type and the usage it reported', async () => {
    const g = await open({
      responses: [
        { ...answer('partial'), stream_error: { type: 'overloaded_error' } },
        answer('whole'),
      ],
    });
    const cut = await call(socketPath, 'POST', '/v1/messages', ask(0));
    expect(cut.status).to.equal(200);
    expect(cut.body).to.contain('event: error').and.contain('overloaded_error');
    await call(socketPath, 'POST', '/v1/messages', ask(0));
    await g.flushed();
    const [first, second] = g.calls();
    expect(first).to.deep.include({ status: 200, outcome: 'cut', reason: 'overloaded_error' });
    expect(first!.tokens).to.deep.equal({ input: 10, output: 1, cacheRead: 0, cacheWrite: 0 });
    expect(second).to.deep.include({ outcome: 'complete', reason: null });
  });

  it('finds a needle in a request, once, and says which call carried it first', async () => {
    const g = await open(
      { responses: [answer('a'), answer('b')] },
      {
        needles: [
          { id: 'skill:x', all: ['pr-flow: Opens a draft'] },
          { id: 'never', all: ['absent'] },
        ],
      },
    );
    await call(socketPath, 'POST', '/v1/messages', ask(1));
    await call(
      socketPath,
      'POST',
      '/v1/messages',
      ask(1, ' - pr-flow:   Opens a\n draft pull request'),
    );
    expect(g.needlesSeen()).to.deep.equal([
      { id: 'skill:x', seq: 2 },
      { id: 'never', seq: null },
    ]);
  });

  it('a flood of refused requests: a few logged, the rest counted; the log stays small', async () => {
    const g = await open({ responses: [] }, { caps: { maxRefusalLines: 5 } });
    const statuses: number[] = [];
    // Waves below the gateway's connection limit, so that every request is answered.
    for (let wave = 0; wave < 10; wave++) {
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => call(socketPath, 'POST', '/v1/other', 'x'.repeat(10_000))),
      );
      statuses.push(...answers.map((a) => a.status));
    }
    expect(statuses.filter((s) => s === 403)).to.have.length(60);
    await g.close();
    gateway = undefined;
    const record = await readRunFlight(dir);
    expect(record.calls).to.have.length(5);
    expect(record.manifest!.refused).to.deep.include({
      total: 60,
      logged: 5,
      by_status: { 403: 60 },
    });
    expect((await stat(flightFiles(dir).calls)).size).to.be.below(5 * 2048);
  });

  it('closes a keep-alive connection after three refusals in a row', async () => {
    const g = await open({ responses: [] });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const seen: Array<{ reused: boolean; status: number; connection: string | undefined }> = [];
    for (let i = 0; i < 4; i++) {
      seen.push(
        await new Promise((resolve, reject) => {
          const req = request({ socketPath, agent, path: '/v1/other', method: 'POST' }, (res) => {
            res.resume();
            res.on('end', () =>
              resolve({
                reused: req.reusedSocket,
                status: res.statusCode!,
                connection: res.headers.connection,
              }),
            );
          });
          req.on('error', reject);
          req.end('x');
        }),
      );
    }
    agent.destroy();
    expect(seen.map((s) => [s.reused, s.status])).to.deep.equal([
      [false, 403],
      [true, 403],
      [true, 403],
      [false, 403],
    ]);
    expect(seen[2]!.connection).to.equal('close');
    await g.close();
    gateway = undefined;
    expect((await readRunFlight(dir)).manifest!.connections_cut).to.be.at.least(1);
  });

  it('oversized bodies on many connections at once: 413 or 503, the memory held within the budget', async () => {
    const budget = new BodyBudget(3 * 1024 * 1024);
    const g = await open(
      { responses: [] },
      { budget, maxBodyMemory: 2 * 1024 * 1024, maxRequestBytes: 1024 * 1024 },
    );
    // Eight bodies under the request cap, all in flight before any ends: 7 MiB asked of 2.
    const medium = Buffer.alloc(900 * 1024, 'm');
    const started: Promise<void>[] = [];
    const answers = Array.from({ length: 8 }, () => {
      let begun!: () => void;
      started.push(new Promise<void>((resolve) => (begun = resolve)));
      return new Promise<number>((resolve) => {
        const req = request({ socketPath, path: '/v1/messages', method: 'POST' }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode!));
        });
        req.on('error', () => resolve(0));
        req.write(medium, () => begun());
        req.on('close', () => begun());
        void Promise.all(started).then(() => req.end());
      });
    });
    const oversized = call(socketPath, 'POST', '/v1/messages', 'b'.repeat(1024 * 1024 + 1));
    const statuses = [...(await Promise.all(answers)), (await oversized).status];
    // 503: the memory was full (retry); 400: through to a stand-in with nothing left to say;
    // 413: over the request cap; 0: the connection closed on a client still sending.
    for (const s of statuses) expect([0, 400, 413, 503]).to.include(s);
    expect(statuses).to.include(503);
    await g.flushed();
    expect(budget.peak()).to.be.at.most(2 * 1024 * 1024);
    expect(budget.inUse()).to.equal(0);
    await g.close();
    gateway = undefined;
    const refused = (await readRunFlight(dir)).manifest!.refused.by_status;
    expect(refused['413']).to.equal(1);
    expect(refused['503']).to.be.at.least(4);
  });

  it("answers 429 past the run's call limit, and stops keeping bodies past the byte cap with a visible mark", async () => {
    const script = { responses: Array.from({ length: 10 }, (_, i) => answer(`a${i}`)) };
    const g = await open(script, { caps: { maxCalls: 6, maxBodyBytes: 6_000 } });
    const statuses = [];
    for (let i = 0; i < 8; i++) {
      statuses.push(
        (await call(socketPath, 'POST', '/v1/messages', ask(i, String(i).repeat(3000)))).status,
      );
    }
    expect(statuses).to.deep.equal([200, 200, 200, 200, 200, 200, 429, 429]);
    await g.close();
    gateway = undefined;
    const record = await readRunFlight(dir);
    expect(record.calls).to.have.length(6);
    const manifest = record.manifest!;
    expect(manifest.truncated)
      .to.have.property('why')
      .that.matches(/passed 6000 bytes/u);
    expect(manifest.bodies.bytes).to.be.at.most(6_000);
    expect(manifest.refused.by_status).to.deep.equal({ 429: 2 });
    const kept = record.calls.filter((c) => c.request && 'block' in c.request);
    const dropped = record.calls.filter((c) => c.request && 'omitted' in c.request);
    expect(kept.length).to.be.greaterThan(0);
    expect(dropped.length).to.be.greaterThan(0);
    for (const c of kept) expect(() => record.request(c)).to.not.throw();
  });

  it('stops writing lines past the log cap, and says where', async () => {
    const g = await open(
      { responses: Array.from({ length: 6 }, (_, i) => answer(`a${i}`)) },
      { caps: { maxLogBytes: 2_000 } },
    );
    for (let i = 0; i < 6; i++) await call(socketPath, 'POST', '/v1/messages', ask(0));
    expect(g.calls(), 'the witness in memory still has every call').to.have.length(6);
    await g.close();
    gateway = undefined;
    const record = await readRunFlight(dir);
    expect(record.calls.length).to.be.within(1, 5);
    expect((await stat(flightFiles(dir).calls)).size).to.be.at.most(2_000);
    expect(record.manifest!.truncated!.why).to.equal('the log passed 2000 bytes');
    expect(record.manifest!.calls).to.equal(record.calls.length);
  });

  it('a client gone mid-body leaves no call in flight: the stop does not wait for it', async () => {
    const g = await open({ responses: [] });
    await new Promise<void>((resolve) => {
      const req = request({
        socketPath,
        path: '/v1/messages',
        method: 'POST',
        headers: { 'content-length': '100000' },
      });
      req.on('error', () => resolve());
      req.write('{"model":', () => setTimeout(() => req.destroy(), 50));
    });
    const began = performance.now();
    await g.settled(5_000);
    expect(performance.now() - began).to.be.below(1_000);
    expect(g.calls(), 'a request never received whole is no call').to.deep.equal([]);
  });
});
