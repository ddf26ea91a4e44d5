/**
 * A cross-agent eval set: a condition may name its own agent (the top-level `agent`'s shape),
 * replacing the set's for its runs; mistakes in it are refused at its JSON pointer.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { agentOf, EvalSetError, loadEvalSet } from '../../../src/config/index.js';

const script = (text: string) => ({ responses: [{ content: [{ text }] }] });
const CLAUDE = { type: 'claude-code', version: '2.1.332', model: { script: 'model/claude.json' } };
const CODEX = { type: 'codex', version: '0.171.0', model: { script: 'model/codex.json' } };

describe('eval set: conditions that are agents (a cross-agent campaign)', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'evalrig-condition-agents-'));
    await mkdir(path.join(dir, 'model'));
    for (const name of ['claude', 'codex']) {
      await writeFile(path.join(dir, 'model', `${name}.json`), JSON.stringify(script(name)));
    }
  });
  after(() => rm(dir, { recursive: true, force: true }));

  const write = async (doc: Record<string, unknown>): Promise<string> => {
    const file = path.join(dir, 'evals.json');
    await writeFile(
      file,
      JSON.stringify({ name: 'x', evals: [{ id: 'one', prompt: 'Do.' }], ...doc }),
    );
    return file;
  };
  const problems = async (doc: Record<string, unknown>): Promise<string[]> => {
    try {
      await loadEvalSet(await write(doc), { env: {} });
    } catch (error) {
      expect(error).to.be.instanceOf(EvalSetError);
      return (error as EvalSetError).problems.map((p) => `${p.pointer}: ${p.message}`);
    }
    return expect.fail('accepted');
  };

  it("normalizes a condition's agent like the set's; agentOf picks it, else the set's", async () => {
    const set = await loadEvalSet(
      await write({
        agent: CLAUDE,
        conditions: { 'claude-code': {}, codex: { agent: CODEX } },
      }),
      { env: {} },
    );
    const [claude, codex] = set.conditions;
    expect(claude!.agent).to.equal(undefined);
    expect(agentOf(set, claude!)).to.equal(set.agent);
    expect(agentOf(set, codex!)).to.deep.equal({
      type: 'codex',
      version: '0.171.0',
      // Defaults applied as at the top: the model it asks for, mounted.
      model_name: 'gpt-5.1-codex',
      install: 'mount',
      command: [],
      resume_command: [],
      env: [],
      model: { script: path.join(dir, 'model', 'codex.json') },
    });
  });

  it("refuses a command agent in a condition, at its type's pointer", async () => {
    const found = await problems({
      agent: CLAUDE,
      conditions: { a: {}, b: { agent: { type: 'command', command: ['true'] } } },
    });
    expect(found).to.deep.equal([
      '/conditions/b/agent/type: a condition\'s own agent must be an adapter agent ("claude-code", "cline", "codex", "copilot-cli", "factory-droid", "gemini-cli", "kilo-code", "opencode", "qwen-code"), got "command"',
    ]);
  });

  it("refuses a condition's adapter agent beside a command agent at the top", async () => {
    const found = await problems({
      agent: { command: ['true'] },
      conditions: { a: {}, b: { agent: CODEX } },
    });
    expect(found).to.have.length(1);
    expect(found[0]).to.match(/^\/conditions\/b\/agent: .*needs an adapter agent at the top too/u);
  });

  it("says the same sentences as at the top for a field a condition's agent type forbids", async () => {
    const found = await problems({
      agent: CLAUDE,
      conditions: { a: {}, b: { agent: { ...CODEX, command: ['codex'] } } },
    });
    expect(found).to.include(
      '/conditions/b/agent/command: is not given for an adapter agent ("claude-code", "cline", "codex", "copilot-cli", "factory-droid", "gemini-cli", "kilo-code", "opencode", "qwen-code"): evalrig builds its argv each turn',
    );
  });

  it("checks a condition agent's model script and asks for a model where it has none", async () => {
    const missing = await problems({
      agent: CLAUDE,
      conditions: { a: {}, b: { agent: { ...CODEX, model: { script: 'model/none.json' } } } },
    });
    expect(missing.some((p) => p.startsWith('/conditions/b/agent/model/script: '))).to.equal(true);
    const none = await problems({
      agent: CLAUDE,
      conditions: { a: {}, b: { agent: { type: 'codex', version: '0.171.0' } } },
    });
    expect(none).to.deep.equal([
      '/evals/0: a "codex" agent needs a model for this eval: give agent.model ({ "script" } or { "url", "key_env" }), or a "model_script" here or in every condition',
    ]);
  });

  it("refuses a condition agent's env passing its own API key", async () => {
    const found = await problems({
      agent: CLAUDE,
      conditions: {
        a: {},
        b: {
          agent: {
            type: 'codex',
            version: '0.171.0',
            model: { url: 'https://api.openai.com', key_env: 'OPENAI_API_KEY' },
            env: ['OPENAI_API_KEY'],
          },
        },
      },
    });
    expect(found).to.have.length(1);
    expect(found[0]).to.match(/^\/conditions\/b\/agent\/env\/0: /u);
  });
});
