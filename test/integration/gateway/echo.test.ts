/**
 * An upstream that echoes the credentials the host added: in a header, in a JSON error body,
 * and split across the chunks of a stream. From inside a real container (network none, a
 * non-root user, the run's socket folder mounted read-only) the agent receives none of them;
 * the flight record counts each echo and keeps its bodies masked too.
 */
import { expect } from 'chai';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { UpstreamAuth } from '../../../src/gateway/types.js';
import { openRunGateway, type RunGateway } from '../../../src/gateway/index.js';
import { LABELS, removeContainers, runOnce } from '../../../src/runtime/index.js';
import { BASE_IMAGE, TEST_CAMPAIGN, requireDocker, testDocker } from '../../support/docker.js';
import { fakeUpstream } from '../../support/gateway.js';

const KEY = 'sk-ant-api03-echoed-key-4c1e9a';
const TOKEN = 'sk-ant-oat01-echoed-token-b27d05';
const labels = { [LABELS.campaign]: TEST_CAMPAIGN, 'evalrig.test': 'echo' };

/** What the upstream received as the credential, whichever header carried it. */
function credentialOf(h: IncomingHttpHeaders): string {
  return String(h['x-api-key'] ?? h.authorization ?? '');
}

/** Answers as the request's `case` asks, echoing the credential it was sent. */
function echo(req: { headers: IncomingHttpHeaders; body: string }, res: ServerResponse): void {
  const sent = credentialOf(req.headers);
  const bare = sent.replace(/^Bearer /u, '');
  const which = (JSON.parse(req.body) as { case: string }).case;
  if (which === 'header') {
    res.writeHead(200, {
      'content-type': 'application/json',
      'request-id': `req_${bare}`,
      'x-debug-auth': sent, // not passed on at all
      'anthropic-ratelimit-requests-remaining': sent,
    });
    res.end('{"type":"message","content":[]}');
  } else if (which === 'error') {
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        type: 'error',
        error: { type: 'authentication_error', message: `bad credential: ${sent}` },
      }),
    );
  } else {
    // The stream: the credential cut in three, each part a chunk of its own, a pause between.
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const text = `event: content_block_delta\ndata: {"delta":{"text":"you sent ${sent}!"}}\n\n`;
    const at = text.indexOf(bare);
    const parts = [text.slice(0, at + 5), text.slice(at + 5, at + 12), text.slice(at + 12)];
    const next = (): void => {
      const part = parts.shift();
      if (part === undefined) return void res.end();
      res.write(part);
      setTimeout(next, 30);
    };
    next();
  }
}

/** What the agent in the container prints of three calls over the socket at `dir`. */
const AGENT = `
const http = require('node:http');
const one = (dir, which) => new Promise((resolve) => {
  const req = http.request({ socketPath: dir + '/model.sock', path: '/v1/messages', method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'placeholder' } }, (res) => {
    let body = '';
    let chunks = 0;
    res.on('data', (c) => { body += c; chunks++; });
    res.on('end', () => resolve({ which, status: res.statusCode, headers: res.headers, body, chunks }));
  });
  req.end(JSON.stringify({ model: 'claude-sonnet-4-5', case: which }));
});
(async () => {
  const out = [];
  for (const dir of process.argv.slice(1)) for (const w of ['header', 'error', 'stream']) out.push(await one(dir, w));
  console.log(JSON.stringify(out));
})();
`;

describe('gateway: credentials an upstream echoes never reach the agent (from inside a container)', function () {
  this.timeout(120_000);
  let dir: string;
  const opened: RunGateway[] = [];
  const upstreams: Awaited<ReturnType<typeof fakeUpstream>>[] = [];

  before(requireDocker);
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'evalrig-echo-'));
  });
  after(async () => {
    for (const g of opened) await g.close();
    for (const u of upstreams) {
      u.server.closeAllConnections();
      await new Promise<void>((resolve) => u.server.close(() => resolve()));
    }
    await removeContainers(testDocker(), labels);
    await rm(dir, { recursive: true, force: true });
  });

  const open = async (name: string, apiKey: string, auth: UpstreamAuth): Promise<RunGateway> => {
    const up = await fakeUpstream(echo);
    upstreams.push(up);
    const files = (f: string): string => path.join(dir, name, f);
    await mkdir(path.join(dir, name));
    const g = await openRunGateway({
      source: { url: up.url, apiKey, auth },
      logPath: files('model-calls.jsonl'),
      record: {
        blocksPath: files('model-blocks.jsonl.gz'),
        manifestPath: files('model-record.json'),
      },
    });
    opened.push(g);
    return g;
  };

  it('masks the key and the OAuth token in headers, an error body and a split stream; the record counts each echo and keeps none', async () => {
    const keyed = await open('key', KEY, 'x-api-key');
    const oauth = await open('oauth', TOKEN, 'oauth');
    const r = await runOnce(
      testDocker(),
      {
        image: BASE_IMAGE,
        user: '65534:65534',
        labels,
        binds: [
          { host: keyed.hostDir, container: '/run/model-key', readOnly: true },
          { host: oauth.hostDir, container: '/run/model-oauth', readOnly: true },
        ],
      },
      ['node', '-e', AGENT, '/run/model-key', '/run/model-oauth'],
    );
    expect(r.exitCode, r.stderr).to.equal(0);
    // The upstreams did send the credentials back: the agent would have seen them.
    expect(upstreams.map((u) => u.seen.map((s) => credentialOf(s.headers)))).to.deep.equal([
      [KEY, KEY, KEY],
      [`Bearer ${TOKEN}`, `Bearer ${TOKEN}`, `Bearer ${TOKEN}`],
    ]);
    const seen = JSON.parse(r.stdout) as {
      which: string;
      status: number;
      headers: Record<string, string>;
      body: string;
      chunks: number;
    }[];
    const all = r.stdout;
    for (const secret of [KEY, TOKEN, KEY.slice(0, 20), TOKEN.slice(-12)]) {
      expect(all).not.to.contain(secret);
    }
    const mark = '[evalrig: the upstream key was here]';
    for (const i of [0, 3]) {
      expect(seen[i]!.headers['request-id']).to.equal(`req_${mark}`);
      expect(seen[i]!.headers).not.to.have.property('x-debug-auth');
      expect(seen[i + 1]!).to.include({ status: 401 });
      expect(seen[i + 1]!.body)
        .to.contain(`bad credential: `)
        .and.contain(mark);
      // The stream still streamed: its chunks came one by one, the credential masked whole.
      expect(seen[i + 2]!.chunks).to.be.greaterThan(1);
      expect(seen[i + 2]!.body)
        .to.contain(`you sent `)
        .and.contain(`${mark}!"}}`);
    }
    expect(seen[0]!.headers['anthropic-ratelimit-requests-remaining']).to.equal(mark);
    expect(seen[3]!.headers['anthropic-ratelimit-requests-remaining']).to.equal(`Bearer ${mark}`);
    for (const g of opened.splice(0)) await g.close();
    for (const [name, secret] of [
      ['key', KEY],
      ['oauth', TOKEN],
    ] as const) {
      const at = (f: string): string => path.join(dir, name, f);
      const lines = (await readFile(at('model-calls.jsonl'), 'utf8')).trim().split('\n');
      const echoes = lines.map(
        (l) => (JSON.parse(l) as { echoesScrubbed?: number }).echoesScrubbed,
      );
      // header: request-id and the rate-limit header; error: its message; stream: the text.
      expect(echoes).to.deep.equal([2, 1, 1]);
      const manifest = JSON.parse(await readFile(at('model-record.json'), 'utf8')) as Record<
        string,
        unknown
      >;
      expect(manifest.echoes_scrubbed).to.equal(4);
      const kept = gunzipSync(await readFile(at('model-blocks.jsonl.gz'))).toString();
      expect(kept).to.contain(mark);
      for (const f of [kept, lines.join('\n'), JSON.stringify(manifest)]) {
        expect(f).not.to.contain(secret);
      }
    }
  });
});
