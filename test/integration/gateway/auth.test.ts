/**
 * The ways users authenticate, as the gateway sends them upstream on the host side: a Claude
 * subscription's OAuth token (`Authorization: Bearer` plus the OAuth beta, as Claude Code
 * sends it) and an OpenAI-compatible base URL with a path. Checked against a real HTTP
 * upstream that records what reached it; the token is in nothing written.
 */
import { expect } from 'chai';
import { mkdir, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { flightFiles } from '../../../src/campaign-folder/index.js';
import { startModelGateway, type ModelGateway } from '../../../src/gateway/index.js';
import { OAUTH_BETA } from '../../../src/gateway/server.js';
import { call, fakeUpstream, PLACEHOLDER } from '../../support/gateway.js';

const TOKEN = 'sk-ant-oat01-subscription-token-3f9a2c';

describe('gateway: a subscription OAuth token and a base URL, added on the host side', function () {
  this.timeout(30_000);
  let dir: string;
  let gateway: ModelGateway | undefined;
  let upstream: Server | undefined;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'evalrig-auth-'));
    await mkdir(path.join(dir, 'model'), { mode: 0o711 });
  });
  afterEach(async () => {
    await gateway?.close();
    upstream?.closeAllConnections();
    await new Promise<void>((resolve) => (upstream ? upstream.close(() => resolve()) : resolve()));
    gateway = upstream = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  const written = async (): Promise<string> => {
    const texts = await Promise.all(
      (await readdir(dir))
        .filter((n) => n !== 'model')
        .map(async (n) => {
          const bytes = await readFile(path.join(dir, n));
          return n.endsWith('.gz') ? gunzipSync(bytes).toString() : bytes.toString();
        }),
    );
    return texts.join('\n');
  };

  it('sends the token as Claude Code does (Bearer and the OAuth beta), drops what the agent sent, and writes it nowhere', async () => {
    // An upstream that echoes the authorization it got (a proxy's error might).
    const up = await fakeUpstream((req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      const said = `token ${String(req.headers.authorization)} refused`;
      res.end(
        JSON.stringify({ type: 'error', error: { type: 'authentication_error', message: said } }),
      );
    });
    upstream = up.server;
    const files = flightFiles(dir);
    const socketPath = path.join(dir, 'model', 'model.sock');
    gateway = await startModelGateway({
      socketPath,
      logPath: files.calls,
      record: { blocksPath: files.blocks, manifestPath: files.manifest },
      upstream: { url: up.url, apiKey: TOKEN, auth: 'oauth' },
    });
    // What the container sends: a placeholder key, a placeholder bearer, its own betas.
    const a = await call(socketPath, 'POST', '/v1/messages?beta=true', '{"messages":[]}', {
      authorization: `Bearer ${PLACEHOLDER}`,
      'anthropic-beta': 'claude-code-20250219, interleaved-thinking-2025-05-14',
    });
    expect(a.status).to.equal(401);
    const seen = up.seen[0]!;
    expect(seen.url).to.equal('/v1/messages?beta=true');
    expect(seen.headers.authorization).to.equal(`Bearer ${TOKEN}`);
    expect(seen.headers['x-api-key']).to.equal(undefined);
    expect(seen.headers['anthropic-beta']).to.equal(
      `claude-code-20250219,interleaved-thinking-2025-05-14,${OAUTH_BETA}`,
    );
    await gateway.close();
    gateway = undefined;
    const all = await written();
    expect(all).to.contain('[evalrig: the upstream key was here]');
    expect(all).to.not.contain(TOKEN);
    expect(all).to.not.contain(TOKEN.slice(0, 16));
  });

  it('adds the OAuth beta when the agent sent none, once when it sent it', async () => {
    const up = await fakeUpstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
    upstream = up.server;
    const socketPath = path.join(dir, 'model', 'model.sock');
    gateway = await startModelGateway({
      socketPath,
      logPath: path.join(dir, 'model-calls.jsonl'),
      upstream: { url: up.url, apiKey: TOKEN, auth: 'oauth' },
    });
    await call(socketPath, 'POST', '/v1/messages', '{}');
    await call(socketPath, 'POST', '/v1/messages', '{}', { 'anthropic-beta': OAUTH_BETA });
    expect(up.seen.map((s) => s.headers['anthropic-beta'])).to.deep.equal([OAUTH_BETA, OAUTH_BETA]);
  });

  it('forwards to an OpenAI-compatible base URL with a path, its /v1 not repeated', async () => {
    const up = await fakeUpstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
    upstream = up.server;
    const socketPath = path.join(dir, 'model', 'model.sock');
    gateway = await startModelGateway({
      socketPath,
      logPath: path.join(dir, 'model-calls.jsonl'),
      paths: ['/v1/responses'],
      upstream: { url: `${up.url}/openai/v1`, apiKey: 'sk-compat', auth: 'bearer' },
    });
    const a = await call(socketPath, 'POST', '/v1/responses', '{"input":[]}');
    expect(a.status).to.equal(200);
    expect(up.seen.map((s) => [s.url, s.headers.authorization])).to.deep.equal([
      ['/openai/v1/responses', 'Bearer sk-compat'],
    ]);
  });
});
