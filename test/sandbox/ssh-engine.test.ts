import { expect } from 'chai';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { ensureTestImage } from '../../src/image/index.js';
import { LABELS } from '../../src/runtime/index.js';
import { connectEngine, engineAddress, RemoteDockerProvider } from '../../src/sandbox/index.js';
import { BASE_IMAGE, TEST_CAMPAIGN, requireDocker, testDocker } from '../support/docker.js';
import { containersWhile, expectBothRunsCompleted, nominalWorkspace } from '../support/engines.js';
import { campaignContainers, cli, runRecords, waitFor } from '../support/faults.js';
import { startSecondEngine, type SecondEngine } from '../support/second-engine.js';
import { sshAvailable, startSshGateway, type SshGateway } from '../support/ssh-gateway.js';
import { makeToyWorkspace, type ToyWorkspace } from '../support/toy.js';
import { anotherOn, sandboxConformance } from './conformance.js';

/**
 * A Docker engine reached over ssh, as the Docker CLI reaches one: an sshd of
 * the test's own whose one key may run nothing but `docker system dial-stdio`
 * against the second engine, the key held by an ssh-agent (SSH_AUTH_SOCK).
 */
describe('a campaign on an ssh:// engine', function () {
  this.timeout(600_000);
  let engine: SecondEngine;
  let gate: SshGateway;
  let ws: ToyWorkspace;
  /** A HOME for evalrig whose ~/.ssh/known_hosts holds `lines`. */
  async function homeKnowing(name: string, lines: string[]): Promise<string> {
    const home = path.join(ws.root, name);
    await mkdir(path.join(home, '.ssh'), { recursive: true });
    await writeFile(path.join(home, '.ssh', 'known_hosts'), lines.map((l) => `${l}\n`).join(''));
    return home;
  }

  before(async function () {
    await requireDocker();
    if (!(await sshAvailable())) {
      throw new Error(
        'the ssh engine test needs root, /usr/sbin/sshd, ssh-keygen, ssh-agent, ssh-add and docker: run scripts/sshd.sh (npm test does)',
      );
    }
    engine = await startSecondEngine();
    gate = await startSshGateway(engine.host);
    await ensureTestImage(testDocker(), { onProgress: () => undefined });
    await engine.loadImage('evalrig-base:bookworm');
    ws = await nominalWorkspace();
  });
  after(async () => {
    await ws?.cleanup();
    await gate?.stop();
    await engine?.stop();
  });

  // Over the socket's forwarding (ssh://…/path.sock): the campaign below covers dial-stdio.
  sandboxConformance('remote Docker over ssh, its socket forwarded (one connection)', async () => {
    const HOME = await homeKnowing('conformance', [gate.knownHostsLine]);
    const socket = new URL(engine.host).pathname;
    const address = engineAddress(
      `${gate.address}${socket}`,
      { SSH_AUTH_SOCK: gate.agentSocket },
      HOME,
    );
    expect(address.ssh?.socket).to.equal(socket);
    const provider = new RemoteDockerProvider({ client: connectEngine(address) });
    return {
      provider,
      image: BASE_IMAGE,
      labels: { [LABELS.campaign]: `${TEST_CAMPAIGN}-ssh` },
      another: (session) => anotherOn(provider, session),
      close: async () =>
        (provider.client.docker.modem as { agent?: { destroy(): void } }).agent?.destroy(),
    };
  });

  it('ssh://root@127.0.0.1:PORT with SSH_AUTH_SOCK: every run plays on the engine behind it', async () => {
    const out = path.join(ws.root, 'ssh');
    const args = ['run', ws.evalSetFile, '--out', out, '--jobs', '2', '--no-report'];
    const HOME = await homeKnowing('home', [gate.knownHostsLine]);
    const running = cli([...args, '--engine', gate.address], {
      SSH_AUTH_SOCK: gate.agentSocket,
      HOME,
    });
    const held = await containersWhile(running, out, { behind: engine.client() });
    const r = await running;
    expect(r.exitCode, r.stderr).to.equal(0);
    expect(held.behind, 'run containers on the engine behind sshd').to.equal(2);
    await expectBothRunsCompleted(out);
  });

  it('evalrig killed (SIGKILL): its reaper reaches the ssh engine and removes its containers within 10 s', async () => {
    const slow = await makeToyWorkspace({
      scripts: { slow: { turns: [{ actions: [{ sleep: 60 }, { stop: 'conformant' }] }] } },
      set: { conditions: { a: {}, b: {} }, evals: [{ id: 'slow', prompt: 'wait', runs: 1 }] },
    });
    try {
      const HOME = await homeKnowing('reaped', [gate.knownHostsLine]);
      const args = ['run', slow.evalSetFile, '--out', slow.outDir, '--jobs', '2', '--no-report'];
      const child = cli([...args, '--engine', gate.address], {
        SSH_AUTH_SOCK: gate.agentSocket,
        HOME,
      });
      const behind = engine.client();
      await waitFor(
        async () => (await campaignContainers(behind, slow.outDir)) === 2,
        120_000,
        'both runs on the engine behind sshd',
      );
      child.kill('SIGKILL');
      await child;
      await waitFor(
        async () => (await campaignContainers(behind, slow.outDir)) === 0,
        10_000,
        'no container of the campaign behind sshd',
      );
    } finally {
      await slow.cleanup();
    }
  });

  /** The campaign is refused before anything runs: one line naming the engine, no stack. */
  function expectRefused(r: { exitCode?: number; stderr: string }, code: number, why: RegExp) {
    expect(r.exitCode, r.stderr).to.equal(code);
    const lines = r.stderr
      .trim()
      .split('\n')
      .filter(
        (l) =>
          !l.startsWith('evalrig: warning: ') && !/DeprecationWarning|--trace-deprecation/u.test(l),
      );
    expect(lines, r.stderr).to.have.length(1);
    expect(lines[0]).to.contain(gate.address);
    expect(lines[0]).to.match(why);
    expect(r.stderr).not.to.match(/^\s+at /mu);
  }

  it('a host whose key known_hosts does not list: refused before any connection, as ssh would', async () => {
    const HOME = await homeKnowing('unknown', []);
    const out = path.join(ws.root, 'unknown-out');
    const r = await cli(['run', ws.evalSetFile, '--out', out, '--engine', gate.address], {
      SSH_AUTH_SOCK: gate.agentSocket,
      HOME,
    });
    expectRefused(r, 2, /no ssh host key is known for \[127\.0\.0\.1\]:\d+/u);
    expect(await runRecords(out)).to.have.length(0);
  });

  it('a host whose key is not the one known_hosts lists: refused, saying so', async () => {
    const other = path.join(ws.root, 'other_host_key');
    await execa('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', other]);
    const [type, blob] = (await readFile(`${other}.pub`, 'utf8')).split(/\s+/u);
    const name = gate.knownHostsLine.split(' ')[0]!;
    const HOME = await homeKnowing('changed', [`${name} ${type} ${blob}`]);
    const out = path.join(ws.root, 'changed-out');
    const r = await cli(['run', ws.evalSetFile, '--out', out, '--engine', gate.address], {
      SSH_AUTH_SOCK: gate.agentSocket,
      HOME,
    });
    expectRefused(r, 1, /ssh host key is not the one known_hosts lists/u);
    expect(await runRecords(out)).to.have.length(0);
  });

  it('no key the sshd accepts (no agent): refused, saying so', async () => {
    const HOME = await homeKnowing('no-agent', [gate.knownHostsLine]);
    const out = path.join(ws.root, 'no-agent-out');
    const r = await cli(['run', ws.evalSetFile, '--out', out, '--engine', gate.address], {
      SSH_AUTH_SOCK: '',
      HOME,
    });
    expectRefused(r, 1, /ssh server accepted none of evalrig's keys/u);
    expect(await runRecords(out)).to.have.length(0);
  });
});
