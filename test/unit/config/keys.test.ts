/**
 * An API key evalrig adds on the host side never enters the container: an eval set that would
 * pass one in is refused at validation, at the JSON pointer that passes it, by `evalrig validate`
 * and by `evalrig run` before anything is built or written.
 */
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { execa } from 'execa';
import { EvalSetError, loadEvalSet } from '../../../src/config/index.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const tsx = import.meta.resolve('tsx');
const KEY = 'sk-ant-the-real-key-0123456789';
const JUDGE_KEY = 'sk-judge-real-key-9876543210';
const AGENT_MODEL = { url: 'https://api.anthropic.com', key_env: 'ANTHROPIC_API_KEY' };
const JUDGE_MODEL = { url: 'https://api.anthropic.com', key_env: 'JUDGE_API_KEY' };

describe('eval set: a host-side API key never passed into the container', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'evalrig-keys-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const write = async (extra: Record<string, unknown>): Promise<string> => {
    const file = path.join(dir, 'evals.json');
    const doc = {
      name: 'keys',
      agent: { type: 'claude-code', version: '2.1.332', model: AGENT_MODEL },
      evals: [{ id: 'one', prompt: 'Do it.' }],
      ...extra,
    };
    await writeFile(file, JSON.stringify(doc));
    return file;
  };
  const problems = async (file: string, env: NodeJS.ProcessEnv): Promise<string[]> => {
    try {
      await loadEvalSet(file, { env });
    } catch (error) {
      expect(error).to.be.instanceOf(EvalSetError);
      const found = (error as EvalSetError).problems;
      // No message ever quotes a key.
      for (const p of found) expect(p.message).not.to.include(KEY).and.not.to.include(JUDGE_KEY);
      return found.map((p) => `${p.pointer}: ${p.message}`);
    }
    return expect.fail('accepted');
  };
  const HOST = { ANTHROPIC_API_KEY: KEY, JUDGE_API_KEY: JUDGE_KEY };

  it("refuses agent.env naming the agent's key variable, whether or not it is set here", async () => {
    const file = await write({
      agent: {
        type: 'claude-code',
        version: '2.1.332',
        model: AGENT_MODEL,
        env: ['HOME_LANG', 'ANTHROPIC_API_KEY'],
      },
    });
    for (const env of [HOST, {}]) {
      const found = await problems(file, env);
      expect(found).to.have.length(1);
      expect(found[0]).to.match(
        /^\/agent\/env\/1: passes the API key of \/agent\/model\/key_env \(ANTHROPIC_API_KEY\) into the container: evalrig adds it on the host side/u,
      );
    }
  });

  it("refuses agent.env naming the judge's key variable, for a command agent too", async () => {
    const file = await write({
      agent: { command: ['agent', '{prompt}'], env: ['JUDGE_API_KEY'] },
      judge: { model: JUDGE_MODEL, model_name: 'claude-judge' },
    });
    expect(await problems(file, HOST)).to.deep.equal([
      '/agent/env/0: passes the API key of /judge/model/key_env (JUDGE_API_KEY) into the container: evalrig adds it on the host side and it must never enter the container, where the agent could read it; remove it',
    ]);
  });

  it('refuses a passed variable whose host value is the key, under another name', async () => {
    const file = await write({
      agent: {
        type: 'claude-code',
        version: '2.1.332',
        model: AGENT_MODEL,
        env: ['LANG', 'MY_TOKEN'],
      },
      judge: { model: JUDGE_MODEL, model_name: 'claude-judge' },
    });
    const found = await problems(file, { ...HOST, LANG: 'C.UTF-8', MY_TOKEN: JUDGE_KEY });
    expect(found).to.have.length(1);
    expect(found[0]).to.match(
      /^\/agent\/env\/1: MY_TOKEN holds the same value on this host as the API key of \/judge\/model\/key_env \(JUDGE_API_KEY\)/u,
    );
    // The same eval set on a host where MY_TOKEN is something else is fine.
    const set = await loadEvalSet(file, { env: { ...HOST, MY_TOKEN: 'another value' } });
    expect(set.agent.env).to.deep.equal(['LANG', 'MY_TOKEN']);
  });

  it("refuses a condition's env holding the key, at its variable", async () => {
    const file = await write({
      conditions: { plain: {}, leaky: { env: { MODE: 'on', TOKEN: KEY } } },
    });
    expect(await problems(file, HOST)).to.deep.equal([
      '/conditions/leaky/env/TOKEN: holds the value of the API key of /agent/model/key_env (ANTHROPIC_API_KEY): written here, it would hand the agent the real key; evalrig adds it on the host side and it must never enter the container, where the agent could read it; remove it',
    ]);
  });

  it('says nothing of an eval set that names no key (a script model, or none)', async () => {
    const file = await write({
      agent: { command: ['agent', '{prompt}'], env: ['ANTHROPIC_API_KEY'] },
    });
    const set = await loadEvalSet(file, { env: HOST });
    expect(set.agent.env).to.deep.equal(['ANTHROPIC_API_KEY']);
  });

  it('evalrig validate and evalrig run refuse it with exit 2 at its pointer, creating nothing', async function () {
    this.timeout(60_000);
    const file = await write({
      agent: { type: 'claude-code', version: '2.1.332', model: AGENT_MODEL, env: ['SHARED'] },
    });
    const out = path.join(dir, 'out');
    const cli = (args: string[]) =>
      execa('node', ['--import', tsx, path.join(root, 'src/cli/main.ts'), ...args], {
        cwd: dir,
        reject: false,
        env: { ANTHROPIC_API_KEY: KEY, SHARED: KEY, EVALRIG_NO_SETUP: '1' },
      });
    for (const args of [
      ['validate', file],
      ['run', file, '--out', out],
    ]) {
      const r = await cli(args);
      expect(r.exitCode, r.stderr).to.equal(2);
      expect(r.stderr).to.include(
        `${file}#/agent/env/0: SHARED holds the same value on this host as the API key of /agent/model/key_env (ANTHROPIC_API_KEY)`,
      );
      expect(r.stderr).not.to.include(KEY);
      expect(r.stdout).not.to.include(KEY);
    }
    expect(await readdir(dir)).to.deep.equal(['evals.json']);
  });

  const TOKEN = 'sk-ant-oat01-the-subscription-token';
  const OAUTH_MODEL = { url: 'https://api.anthropic.com', token_env: 'CLAUDE_CODE_OAUTH_TOKEN' };

  it('refuses agent.env passing the OAuth token of token_env, by its name or its value', async () => {
    const file = await write({
      agent: {
        type: 'claude-code',
        version: '2.1.332',
        model: OAUTH_MODEL,
        env: ['CLAUDE_CODE_OAUTH_TOKEN', 'MY_TOKEN'],
      },
    });
    const found = await problems(file, { CLAUDE_CODE_OAUTH_TOKEN: TOKEN, MY_TOKEN: TOKEN });
    expect(found).to.have.length(2);
    expect(found[0]).to.match(
      /^\/agent\/env\/0: passes the OAuth token of \/agent\/model\/token_env \(CLAUDE_CODE_OAUTH_TOKEN\) into the container/u,
    );
    expect(found[1]).to.match(
      /^\/agent\/env\/1: MY_TOKEN holds the same value on this host as the OAuth token/u,
    );
    for (const p of found) expect(p).not.to.include(TOKEN);
  });

  it('takes token_env for a claude-code agent only, and a base URL with a path but no query', async () => {
    const ok = await write({
      agent: { type: 'claude-code', version: '2.1.332', model: OAUTH_MODEL },
    });
    const set = await loadEvalSet(ok, { env: {} });
    expect(set.agent.model).to.deep.equal(OAUTH_MODEL);
    const compat = { url: 'https://host.example/openai/v1', key_env: 'OPENAI_API_KEY' };
    const codex = await write({
      agent: { type: 'codex', version: '0.171.0', model: compat },
    });
    expect((await loadEvalSet(codex, { env: {} })).agent.model).to.deep.equal(compat);
    const wrong = await write({
      agent: {
        type: 'codex',
        version: '0.171.0',
        model: { ...OAUTH_MODEL, url: 'https://h/v1?x=1' },
      },
    });
    expect(await problems(wrong, {})).to.deep.equal([
      '/agent/model/url: must be an http(s) URL like https://api.anthropic.com or https://host/openai/v1 (no query), got "https://h/v1?x=1"',
      '/agent/model/token_env: is taken only with a "claude-code" agent (a Claude subscription\'s OAuth token, sent as Claude Code sends it); a "codex" agent takes an API key: give "key_env"',
    ]);
  });
});
