/**
 * The keeper container and the socket tunnel on the real test cluster
 * (test/support/k8s.ts): a read-only folder the agent cannot write, a keeper
 * whose processes the agent neither sees nor kills, and host Unix sockets
 * answered through the pod by one long-lived exec in the keeper.
 */
import { expect } from 'chai';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LABELS, type Sandbox, type SandboxSpec } from '../../src/sandbox/index.js';
import {
  KubernetesProvider,
  KubernetesSandbox,
  openCluster,
} from '../../src/sandbox/kubernetes/index.js';
import { BASE_IMAGE } from '../support/docker.js';
import { pushToRegistry, requireCluster } from '../support/k8s.js';

const CLIENT = path.resolve(import.meta.dirname, '../fixtures/sockets/echo-client.mjs');
const AGENT = '1000:1000';

/** A host echo server on a Unix socket: every byte comes back, then the end. */
async function echoServer(socketPath: string): Promise<Server> {
  const server = createServer({ allowHalfOpen: true }, (c) => c.pipe(c));
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  return server;
}

function sh(sandbox: Sandbox, script: string, user = AGENT) {
  return sandbox.exec(['sh', '-c', script], { user, timeoutMs: 120_000 });
}

describe('kubernetes keeper and socket tunnel (a real cluster)', function () {
  this.timeout(300_000);
  let provider: KubernetesProvider;
  let sandbox: KubernetesSandbox;
  let dir: string;
  const servers: Server[] = [];

  before(async function () {
    const env = await requireCluster(this);
    dir = await mkdtemp(path.join(tmpdir(), 'evalrig-k8s-keeper-'));
    const shares = path.join(dir, 'set');
    const sockets = path.join(dir, 'sock');
    await mkdir(shares);
    await mkdir(sockets, { mode: 0o711 });
    await writeFile(path.join(shares, 'expected.txt'), 'the future\n');
    servers.push(await echoServer(path.join(sockets, 'echo.sock')));
    // Served on the host, but not named: no route reaches it.
    servers.push(await echoServer(path.join(sockets, 'other.sock')));
    const cluster = openCluster({ kubeconfig: env.kubeconfig, namespace: env.namespace });
    const labels = { [LABELS.session]: `kkeep-${process.pid}-${Date.now().toString(36)}` };
    provider = new KubernetesProvider({ cluster, name: `k8s://${env.kubeconfig}`, labels });
    await provider.open();
    const spec: SandboxSpec = {
      image: pushToRegistry(BASE_IMAGE, env.registry),
      user: '65534:65534',
      execUser: AGENT,
      workingDir: '/work/toy',
      env: { HOME: '/tmp' },
      folders: [{ host: shares, container: '/evalset', readOnly: true }],
      files: [{ host: CLIENT, container: '/opt/evalrig/test/echo-client.mjs' }],
      sockets: [{ host: sockets, container: '/run/evalrig', names: ['echo.sock'] }],
      limits: { cpus: 1, memoryBytes: 512 * 1024 * 1024 },
    };
    sandbox = (await provider.start(spec)) as KubernetesSandbox;
  });

  after(async () => {
    await sandbox?.remove();
    await provider?.close();
    for (const s of servers) s.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('the agent reads the read-only folder the keeper filled, and cannot write it', async () => {
    const r = await sh(
      sandbox,
      'cat /evalset/expected.txt; touch /evalset/planted 2>&1; (echo x > /evalset/expected.txt) 2>&1; stat -c %u /evalset/expected.txt',
    );
    expect(r.stdout).to.match(/^the future\n/);
    expect(r.stdout.match(/Read-only file system/gi)).to.have.length(2);
    expect(r.stdout).to.match(/\n65534\n$/);
    const file = await sh(
      sandbox,
      'ls -l /opt/evalrig/test/echo-client.mjs; touch /opt/evalrig/x 2>&1',
    );
    expect(file.stdout).to.match(/Read-only file system/i);
  });

  it("the agent neither sees nor kills the keeper's processes; the tunnel lives on", async () => {
    const keeperSees = await sh(
      sandbox,
      'cat /proc/[0-9]*/status | grep -c "^Uid:[[:space:]]*65534"',
      '65534:65534',
    );
    expect(Number(keeperSees.stdout.trim()), 'the keeper sees its own').to.be.greaterThan(1);
    const agentSees = await sh(
      sandbox,
      'cat /proc/[0-9]*/status 2>/dev/null | grep -c "^Uid:[[:space:]]*65534"',
    );
    expect(agentSees.stdout.trim(), 'the agent sees no keeper process').to.equal('0');
    await sh(sandbox, 'kill -9 -1; true');
    await sandbox.stopProcessesOf(AGENT);
    expect(sandbox.tunnelFailure).to.equal(undefined);
    const after = await sandbox.exec(
      ['node', '/opt/evalrig/test/echo-client.mjs', '/run/evalrig/echo.sock', '1', '10'],
      { timeoutMs: 60_000 },
    );
    expect(JSON.parse(after.stdout)).to.deep.equal({ whole: 1 });
  });

  it('carries many connections at once, and a large payload both ways', async () => {
    const many = await sandbox.exec(
      ['node', '/opt/evalrig/test/echo-client.mjs', '/run/evalrig/echo.sock', '24', '65536'],
      { timeoutMs: 120_000 },
    );
    expect(JSON.parse(many.stdout), many.stderr).to.deep.equal({ whole: 24 });
    const large = await sandbox.exec(
      ['node', '/opt/evalrig/test/echo-client.mjs', '/run/evalrig/echo.sock', '1', String(8 << 20)],
      { timeoutMs: 120_000 },
    );
    expect(JSON.parse(large.stdout), large.stderr).to.deep.equal({ whole: 1 });
  });

  it('a name that is not a route is not there; the agent can neither remove nor add a socket', async () => {
    const other = await sandbox.exec(
      ['node', '/opt/evalrig/test/echo-client.mjs', '/run/evalrig/other.sock', '1', '10'],
      { timeoutMs: 60_000 },
    );
    expect(JSON.parse(other.stdout)).to.deep.equal({ whole: 0, error: 'ENOENT' });
    const tamper = await sh(
      sandbox,
      'rm -f /run/evalrig/echo.sock 2>/dev/null || echo kept; touch /run/evalrig/x 2>/dev/null || echo no-new; test -S /run/evalrig/echo.sock && echo up',
    );
    expect(tamper.stdout).to.equal('kept\nno-new\nup\n');
  });

  it('the tunnel closes on remove', async () => {
    await sandbox.remove();
    expect(sandbox.tunnelFailure).to.match(/ended|closed/);
  });
});
