/**
 * The agents' versions as `evalrig doctor` lists them, asked of a real npm pointed at a
 * registry on loopback (a test reaches nothing else): what that registry serves as each
 * package's latest is the newest, and a registry that does not answer says so.
 */
import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AGENT_KINDS } from '../../../src/config/agent-kinds.js';
import {
  agentVersions,
  CLAUDE_CODE_VERIFIED_VERSION,
  formatAgentVersions,
  PINNED_VERSIONS,
} from '../../../src/agents/index.js';

describe('agents: pinned and newest versions, from npm', function () {
  this.timeout(120_000);
  let server: http.Server;
  let registry: string;
  const asked: string[] = [];
  const saved = process.env.npm_config_registry;

  before(async () => {
    server = http.createServer((req, res) => {
      const name = decodeURIComponent((req.url ?? '/').slice(1));
      asked.push(name);
      const kind = Object.values(AGENT_KINDS).find((k) => k.package === name);
      if (!kind) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
        return;
      }
      // Claude Code has a newer version than its pin; the others are at theirs.
      const latest = name === '@anthropic-ai/claude-code' ? '9.9.9' : pinOf(name);
      const body = {
        name,
        'dist-tags': { latest },
        versions: { [latest]: { name, version: latest } },
      };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    registry = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  after(() => {
    if (saved === undefined) delete process.env.npm_config_registry;
    else process.env.npm_config_registry = saved;
    server?.close();
  });

  const pinOf = (pkg: string): string =>
    PINNED_VERSIONS[
      Object.entries(AGENT_KINDS).find(
        ([, k]) => k.package === pkg,
      )![0] as keyof typeof PINNED_VERSIONS
    ];

  it("lists every adapter with its pin and the registry's latest", async () => {
    process.env.npm_config_registry = registry;
    const versions = await agentVersions();
    expect(versions.map((v) => v.kind)).to.deep.equal(Object.keys(AGENT_KINDS));
    expect(asked).to.include.members(Object.values(AGENT_KINDS).map((k) => k.package));
    const claude = versions.find((v) => v.kind === 'claude-code')!;
    expect(claude).to.deep.include({ pinned: CLAUDE_CODE_VERIFIED_VERSION, newest: '9.9.9' });
    expect(formatAgentVersions(claude)).to.equal(
      `  claude-code (@anthropic-ai/claude-code): pinned ${CLAUDE_CODE_VERIFIED_VERSION}, newest 9.9.9: not yet proven by the conformance suite`,
    );
    const codex = versions.find((v) => v.kind === 'codex')!;
    expect(formatAgentVersions(codex)).to.match(/: pinned \S+, the newest$/u);
  });

  it('says npm did not answer when the registry is not there, and does not fail', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    process.env.npm_config_registry = `http://127.0.0.1:${port}/`;
    const versions = await agentVersions(3000);
    for (const v of versions) {
      expect(v.newest).to.equal(null);
      expect(formatAgentVersions(v)).to.match(/newest: not known \(npm did not answer: .+\)$/u);
    }
  });
});
