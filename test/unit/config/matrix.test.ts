/**
 * A matrix eval set: its conditions crossed with `agents`, each condition one per agent named
 * CONDITION@TYPE; its mistakes refused at their JSON pointers.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { agentOf, EvalSetError, loadEvalSet } from '../../../src/config/index.js';

const script = (text: string) => ({ responses: [{ content: [{ text }] }] });
const CLAUDE = { type: 'claude-code', version: '2.1.332', model: { script: 'model/claude.json' } };
const CODEX = { type: 'codex', version: '0.171.0', model: { script: 'model/codex.json' } };
const GEMINI = { type: 'gemini-cli', version: '0.61.0', model: { script: 'model/codex.json' } };
const CONDITIONS = { without_skill: {}, with_skill: { env: { SKILL: '1' } } };

describe('eval set: a matrix of conditions and agents', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'evalrig-matrix-'));
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

  it('expands every condition under each agent, agent by agent, each with its place', async () => {
    const set = await loadEvalSet(
      await write({ agents: [CLAUDE, CODEX, GEMINI], conditions: CONDITIONS }),
      { env: {} },
    );
    expect(set.conditions.map((c) => c.name)).to.deep.equal([
      'without_skill@claude-code',
      'with_skill@claude-code',
      'without_skill@codex',
      'with_skill@codex',
      'without_skill@gemini-cli',
      'with_skill@gemini-cli',
    ]);
    const withCodex = set.conditions[3]!;
    expect(withCodex.matrix).to.deep.equal({ base: 'with_skill', agent: 'codex' });
    // The declared condition's fields stay; its agent is the matrix's entry, normalized.
    expect(withCodex.env).to.deep.equal({ SKILL: '1' });
    expect(agentOf(set, withCodex)).to.deep.include({
      type: 'codex',
      version: '0.171.0',
      model_name: 'gpt-5.1-codex',
      model: { script: path.join(dir, 'model', 'codex.json') },
    });
    // The first agent stands for the set; the baseline is its copy of the first condition.
    expect(set.agent.type).to.equal('claude-code');
    expect(set.baseline_condition).to.equal('without_skill@claude-code');
  });

  it('takes a declared baseline_condition by its declared name', async () => {
    const set = await loadEvalSet(
      await write({
        agents: [CLAUDE, CODEX],
        conditions: CONDITIONS,
        baseline_condition: 'with_skill',
      }),
      { env: {} },
    );
    expect(set.baseline_condition).to.equal('with_skill@claude-code');
    expect(
      await problems({ agents: [CLAUDE, CODEX], baseline_condition: 'with_skill@codex' }),
    ).to.deep.equal([
      '/baseline_condition: no condition named "with_skill@codex" (conditions: default)',
    ]);
  });

  it('refuses agents beside agent, and a condition with its own agent, at their pointers', async () => {
    expect(
      await problems({
        agent: CLAUDE,
        agents: [CLAUDE, CODEX],
        conditions: { a: {}, b: { agent: CODEX } },
      }),
    ).to.deep.equal([
      '/agent: a matrix set ("agents") has no "agent": each of its agents plays every condition; move this agent into "agents" or remove "agents"',
      '/conditions/b/agent: in a matrix set ("agents") a condition names no agent of its own: condition "b" already runs under each of the set\'s agents',
    ]);
  });

  it('refuses a command agent and two agents of one type, at the entry', async () => {
    const found = await problems({
      agents: [CLAUDE, { command: ['true'] }, { ...CODEX }, { ...CODEX, version: '0.170.0' }],
    });
    expect(found).to.deep.equal([
      '/agents/1/type: a matrix\'s agent must be an adapter agent ("claude-code", "cline", "codex", "copilot-cli", "factory-droid", "gemini-cli", "kilo-code", "opencode", "qwen-code"), got "command"',
      '/agents/3/type: "codex" is already /agents/2: a matrix crosses different agents, and its conditions are named by the agent\'s type',
    ]);
  });

  it('checks each entry as an agent: its model script, and a set with neither agent nor agents', async () => {
    const missing = await problems({
      agents: [CLAUDE, { ...CODEX, model: { script: 'model/none.json' } }],
    });
    expect(missing.some((p) => p.startsWith('/agents/1/model/script: '))).to.equal(true);
    expect(await problems({ agents: [CLAUDE] })).to.deep.equal([
      '/agents: must list at least 2 items',
    ]);
    expect(await problems({})).to.deep.equal([
      ': needs "agent" (the agent that plays the runs), or "agents" (a matrix: every condition under each agent)',
    ]);
  });
});
