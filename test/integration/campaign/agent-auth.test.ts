/**
 * A campaign's upstream as its eval set names it, from agent.model to what reaches the API:
 * Codex at an OpenAI-compatible base URL (with a path) and Claude Code with a subscription's
 * OAuth token, each through the run's gateway to a real HTTP upstream that records its requests.
 */
import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AGENT_ADAPTERS } from '../../../src/agents/index.js';
import { modelSources } from '../../../src/campaign/agent.js';
import { planRuns } from '../../../src/campaign/index.js';
import { loadEvalSet } from '../../../src/config/index.js';
import { openRunGateway } from '../../../src/gateway/index.js';
import { call, fakeUpstream } from '../../support/gateway.js';
import { everythingWritten } from '../../support/witness-evals.js';

const TOKEN = 'sk-ant-oat01-campaign-token-77e1b0';
const KEY = 'sk-compat-campaign-key-5a0c';

describe('campaign: the upstream and credential agent.model names reach the API', function () {
  this.timeout(30_000);
  let dir: string;
  let upstream: Server | undefined;
  const saved = { ...process.env };

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'evalrig-agent-auth-'));
  });
  afterEach(async () => {
    process.env = { ...saved };
    upstream?.closeAllConnections();
    await new Promise<void>((resolve) => (upstream ? upstream.close(() => resolve()) : resolve()));
    upstream = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  /** Plays one model call of the eval set's first run through its gateway; the upstream's view. */
  const playOne = async (agent: Record<string, unknown>, apiPath: string) => {
    const up = await fakeUpstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
    upstream = up.server;
    const model = agent.model as Record<string, string>;
    const file = path.join(dir, 'evals.json');
    const doc = {
      name: 'auth',
      agent: { ...agent, model: { ...model, url: model.url!.replace('UP', up.url) } },
      evals: [{ id: 'one', prompt: 'Do it.' }],
    };
    await writeFile(file, JSON.stringify(doc));
    const evalSet = await loadEvalSet(file);
    const planned = planRuns(evalSet);
    const source = (await modelSources(evalSet, planned))(planned[0]!);
    const type = agent.type as 'codex' | 'claude-code';
    const run = await openRunGateway({
      source,
      logPath: path.join(dir, 'out', 'model-calls.jsonl'),
      paths: AGENT_ADAPTERS[type].gatewayPaths,
    });
    try {
      const a = await call(run.socketPath, 'POST', apiPath, '{"input":[]}');
      expect(a.status).to.equal(200);
    } finally {
      await run.close();
    }
    return up.seen;
  };

  it('Codex at an OpenAI-compatible base URL: /v1/responses reaches the base, the key as a bearer', async () => {
    process.env.EVALRIG_COMPAT_KEY = KEY;
    const seen = await playOne(
      {
        type: 'codex',
        version: '0.171.0',
        model_name: 'my-model',
        model: { url: 'UP/compat/v1', key_env: 'EVALRIG_COMPAT_KEY' },
      },
      '/v1/responses',
    );
    expect(seen.map((s) => [s.url, s.headers.authorization])).to.deep.equal([
      ['/compat/v1/responses', `Bearer ${KEY}`],
    ]);
  });

  it('Claude Code with token_env: the OAuth token as a bearer and the OAuth beta, in no file written', async () => {
    process.env.EVALRIG_OAUTH_TOKEN = TOKEN;
    const seen = await playOne(
      {
        type: 'claude-code',
        version: '2.1.332',
        model: { url: 'UP', token_env: 'EVALRIG_OAUTH_TOKEN' },
      },
      '/v1/messages',
    );
    expect(seen).to.have.length(1);
    expect(seen[0]!.headers).to.include({
      authorization: `Bearer ${TOKEN}`,
      'anthropic-beta': 'oauth-2025-04-20',
    });
    expect(seen[0]!.headers).to.not.have.property('x-api-key');
    expect(await everythingWritten(dir)).to.not.contain(TOKEN);
  });

  it('refuses a campaign whose token variable is unset, naming the field', async () => {
    delete process.env.EVALRIG_OAUTH_TOKEN;
    const error = await playOne(
      {
        type: 'claude-code',
        version: '2.1.332',
        model: { url: 'UP', token_env: 'EVALRIG_OAUTH_TOKEN' },
      },
      '/v1/messages',
    ).then(
      () => expect.fail('accepted'),
      (e: Error) => e,
    );
    expect(error.message).to.match(
      /\/agent\/model\/token_env: the host variable EVALRIG_OAUTH_TOKEN is not set \(the OAuth token/u,
    );
  });
});
