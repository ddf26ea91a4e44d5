import { expect } from 'chai';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { modelSources } from '../../../src/campaign/agent.js';
import { planRuns } from '../../../src/campaign/index.js';
import { loadEvalSet } from '../../../src/config/index.js';

const script = (text: string) => ({ responses: [{ content: [{ text }] }] });

describe('campaign: the model each claude-code run plays', () => {
  let dir: string;
  const KEY = 'EVALRIG_TEST_MODEL_KEY';
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'evalrig-model-sources-'));
    await mkdir(path.join(dir, 'model'));
    for (const name of ['set', 'eval', 'condition']) {
      await writeFile(path.join(dir, 'model', `${name}.json`), JSON.stringify(script(name)));
    }
  });
  afterEach(async () => {
    delete process.env[KEY];
    await rm(dir, { recursive: true, force: true });
  });
  const load = async (set: Record<string, unknown>) => {
    const file = path.join(dir, 'evals.json');
    await writeFile(file, JSON.stringify({ name: 's', ...set }));
    const evalSet = await loadEvalSet(file);
    const planned = planRuns(evalSet, {});
    const sourceFor = await modelSources(evalSet, planned);
    return Object.fromEntries(
      planned.map((p) => [`${p.eval.id}/${p.condition.name}`, sourceFor(p)]),
    );
  };

  it("a condition's script wins over its eval's, which wins over agent.model's", async () => {
    const sources = await load({
      agent: { type: 'claude-code', version: '2.1.332', model: { script: 'model/set.json' } },
      conditions: { plain: {}, scripted: { model_script: 'model/condition.json' } },
      evals: [
        { id: 'a', prompt: 'p' },
        { id: 'b', prompt: 'p', model_script: 'model/eval.json' },
      ],
    });
    expect(sources).to.deep.equal({
      'a/plain': { script: script('set') },
      'a/scripted': { script: script('condition') },
      'b/plain': { script: script('eval') },
      'b/scripted': { script: script('condition') },
    });
  });

  it('the real API takes the runs without a script, with the key read from the host', async () => {
    process.env[KEY] = 'sk-test';
    const model = { url: 'https://api.anthropic.com', key_env: KEY };
    const sources = await load({
      agent: { type: 'claude-code', version: '2.1.332', model },
      evals: [
        { id: 'a', prompt: 'p' },
        { id: 'b', prompt: 'p', model_script: 'model/eval.json' },
      ],
    });
    expect(sources).to.deep.equal({
      'a/default': { url: 'https://api.anthropic.com', apiKey: 'sk-test', auth: 'x-api-key' },
      'b/default': { script: script('eval') },
    });
  });

  it('a codex agent calling the real API sends the key as a bearer token', async () => {
    process.env[KEY] = 'sk-openai-test';
    const model = { url: 'https://api.openai.com', key_env: KEY };
    const sources = await load({
      agent: { type: 'codex', version: '0.171.0', model },
      evals: [{ id: 'a', prompt: 'p' }],
    });
    expect(sources).to.deep.equal({
      'a/default': { url: 'https://api.openai.com', apiKey: 'sk-openai-test', auth: 'bearer' },
    });
  });
});
