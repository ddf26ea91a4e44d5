import { expect } from 'chai';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openRunGateway, UpstreamLimiter, type ModelCall } from '../../../src/gateway/index.js';
import { startModelStandIn, startUpstreamSimulator } from '../../../src/model-stand-in/index.js';

function post(
  socketPath: string,
  body: object,
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath, path: '/v1/messages', method: 'POST' }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks).toString(),
          headers: res.headers,
        }),
      );
    });
    req.on('error', reject);
    req.setHeader('content-type', 'application/json');
    req.end(JSON.stringify(body));
  });
}

const ASK = { model: 'claude-sonnet-4-5', max_tokens: 10, messages: [] };

describe('gateways sharing an upstream limiter', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'evalrig-limiter-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("pauses every run's calls for one run's 429 retry-after, and logs the time queued", async () => {
    const upstream = await startModelStandIn({
      script: {
        responses: [
          { error: { status: 429, retry_after: 1 } },
          { content: [{ text: 'b' }], usage: { input_tokens: 5, output_tokens: 1 } },
        ],
      },
      listen: { port: 0 },
    });
    const limiter = new UpstreamLimiter({ maxInFlight: 4 });
    const calls: ModelCall[] = [];
    const open = (name: string) =>
      openRunGateway({
        source: { url: upstream.url, apiKey: 'sk-test' },
        logPath: path.join(dir, `${name}.jsonl`),
        limiter,
        onCall: (c) => calls.push(c),
      });
    const a = await open('a');
    const b = await open('b');
    try {
      expect((await post(a.socketPath, ASK)).status).to.equal(429);
      expect((await post(b.socketPath, ASK)).status).to.equal(200);
      expect(b.gateway.queuedMs()).to.be.greaterThan(0);
      // Admitted at once: only the event loop's delay, far below b's pause
      // (a fixed bound in ms failed on a machine at load 25).
      expect(a.gateway.queuedMs()).to.be.below(b.gateway.queuedMs() / 2);
    } finally {
      await a.close();
      await b.close();
      await upstream.close();
    }
    const line = JSON.parse(
      (await readFile(path.join(dir, 'b.jsonl'), 'utf8')).trim(),
    ) as ModelCall;
    expect(line.queuedMs).to.be.greaterThan(0);
    expect(calls.map((c) => c.status)).to.deep.equal([429, 200]);
    // B left for the upstream a second (the retry-after) after A's 429 came back, or later.
    const [first, second] = calls as [ModelCall, ModelCall];
    const aEnded = Date.parse(first.time) + first.latencyMs;
    const bLeft = Date.parse(second.time) + second.queuedMs!;
    expect(bLeft - aEnded).to.be.greaterThan(990);
    expect(limiter.snapshot()).to.include({ requests: 2, throttled: 1 });
  });

  it('refuses, unforwarded, a call its run may not make (403, not to be retried)', async () => {
    const upstream = await startUpstreamSimulator();
    const g = await openRunGateway({
      source: { url: upstream.url, apiKey: 'sk-test' },
      logPath: path.join(dir, 'c.jsonl'),
      admit: () => 'the run reached its limit of tokens (10)',
    });
    try {
      const answer = await post(g.socketPath, ASK);
      expect(answer.status).to.equal(403);
      expect(answer.headers['x-should-retry']).to.equal('false');
      expect(answer.body).to.match(/limit of tokens/);
      expect(upstream.served().requests).to.equal(0);
    } finally {
      await g.close();
      await upstream.close();
    }
  });

  it("the simulator answers past its per-minute limit with 429, retry-after and Anthropic's headers", async () => {
    const sim = await startUpstreamSimulator({ requestsPerMinute: 2, seed: 7 });
    const g = await openRunGateway({
      source: { url: sim.url, apiKey: 'sk-sim' },
      logPath: path.join(dir, 'd.jsonl'),
    });
    try {
      const got = [];
      for (let i = 0; i < 3; i++) got.push(await post(g.socketPath, { ...ASK, stream: i === 1 }));
      expect(got.map((r) => r.status)).to.deep.equal([200, 200, 429]);
      expect(got[1]!.body).to.match(/event: message_stop/);
      expect(Number(got[2]!.headers['retry-after'])).to.be.within(59, 60);
      expect(got[2]!.headers['anthropic-ratelimit-requests-remaining']).to.equal('0');
      expect(sim.served()).to.deep.include({ requests: 2, tokens: 2100, throttled: 1 });
      expect(sim.served().keys).to.deep.equal(['sk-sim']);
    } finally {
      await g.close();
      await sim.close();
    }
  });

  it('the simulator counts no refused request in its window, and its headers say so; a burst can be set at a request', async () => {
    const sim = await startUpstreamSimulator({
      requestsPerMinute: 5,
      burst529: { chance: 0, ms: 60_000, atRequest: 2 },
    });
    const g = await openRunGateway({
      source: { url: sim.url, apiKey: 'sk-sim' },
      logPath: path.join(dir, 'e.jsonl'),
    });
    try {
      const got = [];
      for (let i = 0; i < 3; i++) got.push(await post(g.socketPath, ASK));
      expect(got.map((r) => r.status)).to.deep.equal([200, 529, 529]);
      // One counted (the first): the refusals left four.
      for (const r of got)
        expect(r.headers['anthropic-ratelimit-requests-remaining']).to.equal('4');
      expect(sim.served()).to.deep.include({ requests: 1, overloaded: 2, peakInWindow: 1 });
      const { arrivals, bursts } = sim.timeline();
      expect(arrivals.map((a) => a.status)).to.deep.equal([200, 529, 529]);
      expect(bursts).to.have.length(1);
      expect(bursts[0]!.from).to.equal(arrivals[1]!.at);
    } finally {
      await g.close();
      await sim.close();
    }
  });
});
