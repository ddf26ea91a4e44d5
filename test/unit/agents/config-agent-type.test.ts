import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
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

  it('claude-code takes an exact version and no command', async () => {
    const set = await load({ type: 'claude-code', version: '2.1.332', env: ['ANTHROPIC_API_KEY'] });
    expect(set.agent).to.deep.equal({
      type: 'claude-code',
      version: '2.1.332',
      command: [],
      resume_command: [],
      env: ['ANTHROPIC_API_KEY'],
    });
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
      await problem({ type: 'claude-code', version: '2.1.332', command: ['claude'] }),
    ).to.contain(
      '#/agent/command: is not given for a "claude-code" agent: evalrig builds its argv each turn',
    );
  });

  it('refuses a command agent without its command, and an unknown type', async () => {
    expect(await problem({})).to.contain('#/agent: missing required field "command"');
    expect(await problem({ type: 'codex', command: ['x'] })).to.match(/\/agent\/type/);
    expect(await problem({ command: ['x'], version: '1.0.0' })).to.contain(
      '#/agent/version: is taken only with an agent "type" that installs a package ("claude-code")',
    );
    // One problem each: the if/then/else's own summary is not repeated.
    expect(await problem({})).to.not.contain('schema');
  });
});

describe('campaign: a claude-code agent before runs play it', () => {
  it('is refused at once with the pointer, and nothing is created', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'evalrig-agent-type-'));
    try {
      const file = path.join(dir, 'evals.json');
      const agent = { type: 'claude-code', version: '2.1.332' };
      await writeFile(file, JSON.stringify({ name: 's', agent, evals: EVALS }, null, 2));
      const out = path.join(dir, 'out');
      const error = await runCampaign({ evalSetFile: file, outDir: out }).then(
        () => undefined,
        (caught: Error) => caught,
      );
      expect(error).to.be.instanceOf(InputError);
      expect(error?.message).to.equal(
        `${file}: /agent/type: "claude-code" is not played by campaigns yet; use a command agent (agent.command)`,
      );
      expect(existsSync(out)).to.equal(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
