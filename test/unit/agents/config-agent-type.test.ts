import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCampaign } from '../../../src/campaign/index.js';
import { EvalSetError, loadEvalSet } from '../../../src/config/index.js';
import { InputError } from '../../../src/errors/index.js';

const EVALS = [{ id: 'hello', prompt: 'Say hello.' }];

describe('eval set: agent.type', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'evalrig-agent-type-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  const load = async (agent: unknown) => {
    const file = path.join(dir, 'evals.json');
    await writeFile(file, JSON.stringify({ name: 's', agent, evals: EVALS }, null, 2));
    return loadEvalSet(file);
  };
  const problem = async (agent: unknown): Promise<string> => {
    try {
      await load(agent);
    } catch (e) {
      expect(e).to.be.instanceOf(EvalSetError);
      return (e as Error).message;
    }
    throw new Error('accepted');
  };

  const UPSTREAM = { url: 'https://api.anthropic.com', key_env: 'ANTHROPIC_API_KEY' };

  it('claude-code takes an exact version, a model and no command', async () => {
    const set = await load({ type: 'claude-code', version: '2.1.332', model: UPSTREAM });
    expect(set.agent).to.deep.equal({
      type: 'claude-code',
      version: '2.1.332',
      command: [],
      resume_command: [],
      env: [],
      model: UPSTREAM,
      install: 'mount',
    });
  });

  it('codex takes an exact version, a model, a model name (default gpt-5.1-codex) and an install mode', async () => {
    const openai = { url: 'https://api.openai.com', key_env: 'OPENAI_API_KEY' };
    const set = await load({ type: 'codex', version: '0.171.0', model: openai });
    expect(set.agent).to.deep.equal({
      type: 'codex',
      version: '0.171.0',
      model_name: 'gpt-5.1-codex',
      install: 'mount',
      command: [],
      resume_command: [],
      env: [],
      model: openai,
    });
    const named = await load({
      type: 'codex',
      version: '0.171.0',
      model: openai,
      model_name: 'gpt-5-mini',
      install: 'image',
    });
    expect(named.agent).to.include({ model_name: 'gpt-5-mini', install: 'image' });
  });

  it('refuses a model name for claude-code or a command agent, a bad one, and an unknown install', async () => {
    expect(
      await problem({ type: 'claude-code', version: '2.1.332', model: UPSTREAM, model_name: 'x' }),
    ).to.contain(
      '#/agent/model_name: is taken only with a "cline", "codex", "copilot-cli", "factory-droid", "gemini-cli"',
    );
    expect(await problem({ command: ['x'], model_name: 'x' })).to.contain('#/agent/model_name');
    expect(
      await problem({ type: 'codex', version: '0.171.0', model: UPSTREAM, model_name: 'a b' }),
    ).to.contain('#/agent/model_name: must be a model name like gpt-5.1-codex');
    expect(
      await problem({ type: 'codex', version: '0.171.0', model: UPSTREAM, install: 'copy' }),
    ).to.match(/#\/agent\/install/u);
    expect(await problem({ command: ['x'], install: 'image' })).to.contain(
      '#/agent/install: is taken only with an agent "type" that installs a package',
    );
  });

  it('copilot-cli, factory-droid, gemini-cli, opencode and qwen-code take a model name, each with its own default', async () => {
    for (const [type, model] of [
      ['copilot-cli', 'gpt-5.4'],
      ['factory-droid', 'kimi-k2.6'],
      ['gemini-cli', 'gemini-2.5-pro'],
      ['opencode', 'gpt-5.1'],
      ['qwen-code', 'qwen3-coder-plus'],
    ] as const) {
      const set = await load({ type, version: '1.0.0', model: UPSTREAM });
      expect(set.agent).to.include({ type, model_name: model, install: 'mount' });
    }
  });

  it('a command agent reads as before: no type, no version', async () => {
    const set = await load({ type: 'command', command: ['agent', '{prompt}'] });
    expect(set.agent).to.deep.equal({
      command: ['agent', '{prompt}'],
      resume_command: ['agent', '{prompt}'],
      env: [],
    });
  });

  it('refuses claude-code without a version, with a range, or with a command, at the field', async () => {
    expect(await problem({ type: 'claude-code' })).to.contain(
      '#/agent: missing required field "version"',
    );
    expect(await problem({ type: 'claude-code', version: '^2.1.0' })).to.match(
      /\/agent\/version.*exact version like 2\.1\.332/,
    );
    expect(
      await problem({
        type: 'claude-code',
        version: '2.1.332',
        command: ['claude'],
        model: UPSTREAM,
      }),
    ).to.contain(
      '#/agent/command: is not given for an adapter agent ("claude-code", "cline", "codex", "copilot-cli", "factory-droid", "gemini-cli", "kilo-code", "opencode", "qwen-code"): evalrig builds its argv each turn',
    );
  });

  it('refuses a command agent without its command, and an unknown type', async () => {
    expect(await problem({})).to.contain('#/agent: missing required field "command"');
    expect(await problem({ type: 'copilot', command: ['x'] })).to.match(/\/agent\/type/);
    expect(await problem({ type: 'codex', version: '0.171.0', command: ['x'] })).to.contain(
      '#/agent/command: is not given for an adapter agent',
    );
    expect(await problem({ command: ['x'], version: '1.0.0' })).to.contain(
      '#/agent/version: is taken only with an agent "type" that installs a package ("claude-code", "cline", "codex", "copilot-cli", "factory-droid", "gemini-cli", "kilo-code", "opencode", "qwen-code")',
    );
    // One problem each: the if/then/else's own summary is not repeated.
    expect(await problem({})).to.not.contain('schema');
  });
});

const SCRIPT = {
  responses: [{ content: [{ text: 'Hello.' }], usage: { input_tokens: 10, output_tokens: 2 } }],
};

describe('eval set: the model of a claude-code agent', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'evalrig-agent-model-'));
    await mkdir(path.join(dir, 'model'));
    await writeFile(path.join(dir, 'model', 'ok.json'), JSON.stringify(SCRIPT));
    await writeFile(path.join(dir, 'model', 'bad.json'), JSON.stringify({ responses: [] }));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  const AGENT = { type: 'claude-code', version: '2.1.332' };
  const load = async (set: Record<string, unknown>) => {
    const file = path.join(dir, 'evals.json');
    await writeFile(file, JSON.stringify({ name: 's', agent: AGENT, evals: EVALS, ...set }));
    return loadEvalSet(file);
  };
  const problem = async (set: Record<string, unknown>): Promise<string> => {
    try {
      await load(set);
    } catch (e) {
      expect(e).to.be.instanceOf(EvalSetError);
      return (e as Error).message;
    }
    throw new Error('accepted');
  };

  it("resolves agent.model.script, an eval's and a condition's model_script in the folder", async () => {
    const set = await load({
      agent: { ...AGENT, model: { script: 'model/ok.json' } },
      conditions: { with: { model_script: 'model/ok.json' }, without: {} },
      evals: [{ ...EVALS[0], model_script: './model/ok.json' }],
    });
    const ok = path.join(dir, 'model', 'ok.json');
    expect(set.agent.model).to.deep.equal({ script: ok });
    expect(set.evals[0]!.model_script).to.equal(ok);
    expect(set.conditions.map((c) => c.model_script)).to.deep.equal([ok, undefined]);
  });

  it("needs a model for every eval: agent.model, its model_script, or every condition's", async () => {
    expect(await problem({})).to.contain(
      '#/evals/0: a "claude-code" agent needs a model for this eval: give agent.model',
    );
    expect(await problem({ agent: { type: 'codex', version: '0.171.0' } })).to.contain(
      '#/evals/0: a "codex" agent needs a model for this eval: give agent.model',
    );
    await load({ conditions: { a: { model_script: 'model/ok.json' } } });
  });

  it('refuses a script outside the folder, missing, or not a playable script, at its pointer', async () => {
    expect(await problem({ evals: [{ ...EVALS[0], model_script: '../x.json' }] })).to.match(
      /#\/evals\/0\/model_script: climbs out of the eval set.s folder/u,
    );
    expect(await problem({ evals: [{ ...EVALS[0], model_script: 'model/none.json' }] })).to.match(
      /#\/evals\/0\/model_script: .*no such file/u,
    );
    expect(await problem({ conditions: { a: { model_script: 'model/bad.json' } } })).to.match(
      /#\/conditions\/a\/model_script: model script .*bad\.json: \/responses/u,
    );
  });

  it('refuses a model for a command agent, and an upstream that is not an origin', async () => {
    expect(
      await problem({ agent: { command: ['x'], model: { script: 'model/ok.json' } } }),
    ).to.contain(
      '#/agent/model: is taken only with an agent "type" whose model calls evalrig carries',
    );
    expect(
      await problem({ agent: { ...AGENT, model: { url: 'ftp://x/y', key_env: 'K' } } }),
    ).to.match(/#\/agent\/model/u);
  });
});

describe('campaign: a claude-code agent calling the real API', () => {
  it('is refused at once when its key variable is unset, with the pointer, and nothing is created', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'evalrig-agent-type-'));
    const name = 'EVALRIG_TEST_UNSET_KEY';
    delete process.env[name];
    try {
      const file = path.join(dir, 'evals.json');
      const agent = {
        type: 'claude-code',
        version: '2.1.332',
        model: { url: 'https://api.anthropic.com', key_env: name },
      };
      await writeFile(file, JSON.stringify({ name: 's', agent, evals: EVALS }, null, 2));
      const out = path.join(dir, 'out');
      const error = await runCampaign({ evalSetFile: file, outDir: out }).then(
        () => undefined,
        (caught: Error) => caught,
      );
      expect(error).to.be.instanceOf(InputError);
      expect(error?.message).to.equal(
        `${file}: /agent/model/key_env: the host variable ${name} is not set (the API key evalrig's gateway adds on the host; it never enters the container)`,
      );
      expect(existsSync(out)).to.equal(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
