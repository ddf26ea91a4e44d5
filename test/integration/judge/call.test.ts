/**
 * A judge's question through the real model gateway on the host: to the model stand-in playing
 * a script, and to an upstream standing in for a real API (what it receives is what leaves).
 */
import { expect } from 'chai';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { judgeFlightFiles } from '../../../src/campaign-folder/index.js';
import type { JudgeSpec } from '../../../src/config/index.js';
import { readFlight } from '../../../src/flight/index.js';
import { askJudge, prepareJudgeModel } from '../../../src/judge/index.js';

const SPEC = {
  model_name: 'judge-1',
  max_diff_bytes: 65536,
  max_transcript_bytes: 32768,
  max_tokens: 1000,
} as const;

describe('judge: asking through the host’s model gateway', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'evalrig-judge-call-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  for (const api of ['messages', 'responses'] as const) {
    it(`plays a script in the ${api} API, logging the call in the judge's file`, async () => {
      const script = path.join(dir, 'judge.json');
      await writeFile(
        script,
        JSON.stringify({
          responses: [
            { content: [{ text: '{"ok": true}' }], usage: { input_tokens: 7, output_tokens: 3 } },
          ],
        }),
      );
      const judge = await prepareJudgeModel({ ...SPEC, api, model: { script } } as JudgeSpec, 'e');
      const flight = judgeFlightFiles(dir);
      const logPath = flight.calls;
      const reply = await askJudge(judge, { system: 'rubric', user: 'the run', flight });
      expect(reply.text).to.equal('{"ok": true}');
      expect(reply.calls).to.have.length(1);
      expect(reply.calls[0]).to.include({ status: 200, input_tokens: 7, output_tokens: 3 });
      const logged = JSON.parse(await readFile(logPath, 'utf8')) as Record<string, unknown>;
      expect(logged).to.include({ path: `/v1/${api}`, model: 'judge-1', status: 200 });
    });
  }

  describe('a real API (an upstream on this host standing in for it)', () => {
    let server: Server;
    let url: string;
    const seen: { path: string; headers: IncomingHttpHeaders; body: Record<string, unknown> }[] =
      [];
    before(async () => {
      server = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const body = JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>;
          seen.push({ path: req.url ?? '', headers: req.headers, body });
          const answer =
            req.url === '/v1/responses'
              ? { output: [{ type: 'message', content: [{ type: 'output_text', text: 'R' }] }] }
              : { content: [{ type: 'text', text: 'M' }] };
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      process.env.EVALRIG_TEST_JUDGE_KEY = 'secret-key-1';
    });
    after(() => {
      delete process.env.EVALRIG_TEST_JUDGE_KEY;
      server.close();
    });

    it('sends the Messages API only the rubric, the question and the key as x-api-key; logs no key', async () => {
      const judge = await prepareJudgeModel(
        { ...SPEC, api: 'messages', model: { url, key_env: 'EVALRIG_TEST_JUDGE_KEY' } },
        'e',
      );
      const flight = judgeFlightFiles(dir);
      const reply = await askJudge(judge, { system: 'rubric', user: 'the run', flight });
      expect(reply.text).to.equal('M');
      const got = seen.at(-1)!;
      expect(got.path).to.equal('/v1/messages');
      expect(got.headers['x-api-key']).to.equal('secret-key-1');
      expect(got.headers.authorization).to.equal(undefined);
      expect(got.headers['anthropic-version']).to.equal('2023-06-01');
      expect(got.body).to.deep.equal({
        model: 'judge-1',
        max_tokens: 1000,
        system: 'rubric',
        messages: [{ role: 'user', content: 'the run' }],
      });
      expect(await readFile(flight.calls, 'utf8')).to.not.include('secret-key-1');
      // The judge's flight record holds the body the upstream received, and no key.
      const record = await readFlight(flight);
      expect(record.request(record.calls.at(-1)!)).to.deep.equal(got.body);
      const blocks = gunzipSync(await readFile(flight.blocks)).toString('utf8');
      expect(blocks).to.include('the run').and.not.include('secret-key-1');
      expect(judge.identity).to.deep.equal({ model: 'judge-1', source: 'api', url });
    });

    it('sends the Responses API the key as a bearer token', async () => {
      const judge = await prepareJudgeModel(
        { ...SPEC, api: 'responses', model: { url, key_env: 'EVALRIG_TEST_JUDGE_KEY' } },
        'e',
      );
      const reply = await askJudge(judge, {
        system: 'rubric',
        user: 'the run',
        flight: judgeFlightFiles(dir),
      });
      expect(reply.text).to.equal('R');
      const got = seen.at(-1)!;
      expect(got.path).to.equal('/v1/responses');
      expect(got.headers.authorization).to.equal('Bearer secret-key-1');
      expect(got.headers['x-api-key']).to.equal(undefined);
      expect(got.headers['anthropic-version']).to.equal(undefined);
      expect(got.body).to.deep.equal({
        model: 'judge-1',
        max_output_tokens: 1000,
        instructions: 'rubric',
        input: 'the run',
        store: false,
      });
    });
  });
});
