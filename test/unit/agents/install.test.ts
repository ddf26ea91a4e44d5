import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  agentDir,
  AgentInstallError,
  CLAUDE_CODE_VERIFIED_VERSION,
  CODEX_VERIFIED_VERSION,
  ensureAgentInstalled,
} from '../../../src/agents/index.js';

describe('agent install: the cache', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'evalrig-agents-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('takes an installed version from the cache as is (no npm), the binary resolved through its link, with its sha256', async () => {
    const dir = path.join(root, '@scope/tool@1.2.3');
    const real = path.join(dir, 'node_modules/@scope/tool/bin/tool.exe');
    await mkdir(path.dirname(real), { recursive: true });
    await mkdir(path.join(dir, 'node_modules/.bin'), { recursive: true });
    await writeFile(real, 'binary bytes', { mode: 0o755 });
    await symlink('../@scope/tool/bin/tool.exe', path.join(dir, 'node_modules/.bin/tool'));
    const install = await ensureAgentInstalled({
      package: '@scope/tool',
      version: '1.2.3',
      bin: 'tool',
      root,
    });
    expect(install).to.deep.equal({
      package: '@scope/tool',
      version: '1.2.3',
      dir,
      binary: real,
      sha256: createHash('sha256').update('binary bytes').digest('hex'),
    });
  });

  it('takes the binary at binaryPath when the .bin link is only a launcher (Codex)', async () => {
    const dir = path.join(root, '@scope/tool@1.2.3');
    const launcher = path.join(dir, 'node_modules/@scope/tool/bin/tool.js');
    const real = path.join(dir, 'node_modules/@scope/tool-linux/vendor/bin/tool');
    await mkdir(path.dirname(real), { recursive: true });
    await mkdir(path.dirname(launcher), { recursive: true });
    await mkdir(path.join(dir, 'node_modules/.bin'), { recursive: true });
    await writeFile(launcher, '#!/usr/bin/env node\n', { mode: 0o755 });
    await writeFile(real, 'static binary', { mode: 0o755 });
    await symlink('../@scope/tool/bin/tool.js', path.join(dir, 'node_modules/.bin/tool'));
    const install = await ensureAgentInstalled({
      package: '@scope/tool',
      version: '1.2.3',
      bin: 'tool',
      binaryPath: 'node_modules/@scope/tool-linux/vendor/bin/tool',
      root,
    });
    expect(install.binary).to.equal(real);
    expect(install.sha256).to.equal(createHash('sha256').update('static binary').digest('hex'));
  });

  it('refuses a version that is not exact before anything is installed', async () => {
    let error: unknown;
    try {
      await ensureAgentInstalled({ package: '@scope/tool', version: 'latest', bin: 'tool', root });
    } catch (e) {
      error = e;
    }
    expect(String(error)).to.contain(
      '@scope/tool needs an exact version (like 2.1.332), not "latest"',
    );
  });

  it('scripts/agents.sh installs by default the version the adapter was verified with', async () => {
    const script = await readFile('scripts/agents.sh', 'utf8');
    expect(/EVALRIG_CLAUDE_CODE_VERSION:-([0-9.]+)\}/.exec(script)?.[1]).to.equal(
      CLAUDE_CODE_VERIFIED_VERSION,
    );
    expect(/EVALRIG_CODEX_VERSION:-([0-9.]+)\}/.exec(script)?.[1]).to.equal(CODEX_VERIFIED_VERSION);
  });

  it('the cache holds one folder per exact version; ranges, tags and odd names are refused', () => {
    expect(agentDir('/c', '@anthropic-ai/claude-code', '2.1.332')).to.equal(
      '/c/@anthropic-ai/claude-code@2.1.332',
    );
    for (const [pkg, version] of [
      ['@anthropic-ai/claude-code', 'latest'],
      ['@anthropic-ai/claude-code', '^2.1.0'],
      ['../../etc', '1.0.0'],
      ['@anthropic-ai/claude-code', '1.0.0/../../x'],
    ] as const) {
      expect(() => agentDir('/c', pkg, version), `${pkg}@${version}`).to.throw(AgentInstallError);
    }
  });
});
