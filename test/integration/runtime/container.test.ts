import { expect } from 'chai';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import {
  LABELS,
  NoDockerEngineError,
  connectDocker,
  listContainers,
  pingDocker,
  removeContainers,
  runOnce,
  startContainer,
} from '../../../src/runtime/index.js';
import { BASE_IMAGE, TEST_CAMPAIGN, testDocker } from '../../support/docker.js';

const client = testDocker();
const labels = { [LABELS.campaign]: TEST_CAMPAIGN };
const spec = { image: BASE_IMAGE, user: '65534:65534', labels };

describe('runtime: real containers of the base image', function () {
  before(async () => {
    await pingDocker(client);
  });
  after(async () => {
    await removeContainers(client, labels);
  });

  it('runs git --version with network none', async () => {
    const r = await runOnce(client, spec, ['git', '--version']);
    expect(r.exitCode).to.equal(0);
    expect(r.stdout).to.match(/^git version \d+\.\d+/);
  });

  it('runs node --version (node >= 18)', async () => {
    const r = await runOnce(client, spec, ['node', '--version']);
    expect(r.exitCode).to.equal(0);
    const major = Number(/^v(\d+)\./.exec(r.stdout)?.[1]);
    expect(major).to.be.at.least(18);
  });

  it('reports a failing command with its exit code and stderr', async () => {
    const r = await runOnce(client, spec, ['sh', '-c', 'echo oops >&2; exit 3']);
    expect(r.exitCode).to.equal(3);
    expect(r.stderr).to.equal('oops\n');
  });

  it('starts containers with no network, no capabilities and limits', async () => {
    const run = await startContainer(client, { ...spec, limits: { pids: 64 } });
    try {
      const net = await run.exec(['sh', '-c', 'ls /sys/class/net']);
      expect(net.stdout.trim().split(/\s+/)).to.deep.equal(['lo']);
      const caps = await run.exec(['sh', '-c', 'grep CapEff /proc/self/status']);
      expect(caps.stdout).to.match(/CapEff:\s+0+\n/);
      const who = await run.exec(['id', '-u']);
      expect(who.stdout.trim()).to.equal('65534');
      const info = await run.container.inspect();
      expect(info.HostConfig.NetworkMode).to.equal('none');
      expect(info.HostConfig.SecurityOpt).to.include('no-new-privileges');
      expect(info.HostConfig.PidsLimit).to.equal(64);
      expect(info.HostConfig.Binds ?? []).to.not.satisfy((b: string[]) =>
        b.some((x) => x.includes('docker.sock')),
      );
      expect(info.Config.Labels[LABELS.managed]).to.equal('true');
    } finally {
      await run.remove();
    }
  });

  it('passes standard input and keeps execs in one container', async () => {
    const run = await startContainer(client, spec);
    try {
      await run.exec(['sh', '-c', 'cat > /tmp/kept'], { stdin: 'hello\n' });
      const r = await run.exec(['cat', '/tmp/kept']);
      expect(r.stdout).to.equal('hello\n');
    } finally {
      await run.remove();
    }
  });

  it('gives up on an exec at its timeout, and kill stops the container', async () => {
    const run = await startContainer(client, spec);
    try {
      const r = await run.exec(['sleep', '30'], { timeoutMs: 300 });
      expect(r.timedOut).to.equal(true);
      expect(r.exitCode).to.equal(null);
      // Time given back (a turn's calls queued behind the upstream's limits) is not charged.
      let queued = 0;
      setTimeout(() => (queued = 10_000), 100);
      const given = await run.exec(['sleep', '1'], { timeoutMs: 300, extraMs: () => queued });
      expect(given).to.include({ timedOut: false, exitCode: 0 });
      await run.kill();
      const info = await run.container.inspect();
      expect(info.State.Running).to.equal(false);
    } finally {
      await run.remove();
    }
  });

  it('stops a user with nothing running by a process listing, one left running by an exec', async () => {
    const run = await startContainer(client, { ...spec, execUser: '1000:1000' });
    // The engine's exec_create events for this container while `work` runs.
    const execsDuring = async (work: () => Promise<unknown>): Promise<number> => {
      const since = Date.now() / 1000;
      await work();
      const until = Date.now() / 1000 + 1;
      const stream = (await client.docker.getEvents({
        since,
        until,
        filters: { container: [run.id], event: ['exec_create'] },
      })) as unknown as AsyncIterable<Buffer>;
      let text = '';
      for await (const chunk of stream) text += String(chunk);
      return text.split('\n').filter((line) => line.trim() !== '').length;
    };
    try {
      expect(await execsDuring(() => run.exec(['true'])), 'the events are seen').to.equal(1);
      const quiet = await execsDuring(() => run.stopProcessesOf('1000:1000'));
      expect(quiet, 'no exec when the engine lists none of the user').to.equal(0);

      const bg = await run.exec(['sh', '-c', 'sleep 1000 >/dev/null 2>&1 & echo $!']);
      const pid = bg.stdout.trim();
      const stopping = await execsDuring(() => run.stopProcessesOf('1000:1000'));
      expect(stopping, 'one exec stopped what was left').to.equal(1);
      const left = await run.exec(['sh', '-c', `test -e /proc/${pid} && echo left; echo done`]);
      expect(left.stdout).to.equal('done\n');
    } finally {
      await run.remove();
    }
  });

  it('caps output and says so', async () => {
    const r = await runOnce(client, spec, ['sh', '-c', 'head -c 5000 /dev/zero'], {
      maxOutputBytes: 1000,
    });
    expect(r.stdout.length).to.equal(1000);
    expect(r.truncated).to.equal(true);
  });

  it('finds and removes leftovers by label', async () => {
    const mine = { [LABELS.campaign]: `${TEST_CAMPAIGN}-leftover` };
    await startContainer(client, { ...spec, labels: mine });
    await startContainer(client, { ...spec, labels: mine });
    expect(await listContainers(client, mine)).to.have.length(2);
    expect(await removeContainers(client, mine)).to.equal(2);
    expect(await listContainers(client, mine)).to.have.length(0);
  });

  it('mounts a host folder read-only when asked', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'evalrig-bind-'));
    await chmod(dir, 0o777); // writable for the container's user, were it not read-only
    try {
      const r = await runOnce(
        client,
        { ...spec, binds: [{ host: dir, container: '/mnt/x', readOnly: true }] },
        ['sh', '-c', 'touch /mnt/x/f'],
      );
      expect(r.exitCode).to.not.equal(0);
      expect(r.stderr).to.match(/Read-only file system/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('runtime: no engine at DOCKER_HOST', () => {
  it('fails fast with the clear message, naming where it looked', async () => {
    const dead = `unix://${path.join(tmpdir(), `evalrig-nothing-${process.pid}.sock`)}`;
    const started = Date.now();
    let caught: unknown;
    try {
      await pingDocker(connectDocker({ DOCKER_HOST: dead }));
    } catch (error) {
      caught = error;
    }
    expect(caught).to.be.instanceOf(NoDockerEngineError);
    expect((caught as Error).message).to.equal(
      `no Docker engine answers at ${dead}: run scripts/docker-engine.sh or set DOCKER_HOST`,
    );
    expect(Date.now() - started).to.be.below(5000);
  });

  it('the CLI prints only that message and exits non-zero', async () => {
    const dead = `unix://${path.join(tmpdir(), `evalrig-nothing-${process.pid}.sock`)}`;
    const r = await execa('node', ['--import', 'tsx', 'src/cli/main.ts', 'doctor', '--no-agents'], {
      env: { DOCKER_HOST: dead },
      reject: false,
    });
    expect(r.exitCode).to.equal(1);
    expect(r.stderr).to.equal(
      `evalrig: no Docker engine answers at ${dead}: run scripts/docker-engine.sh or set DOCKER_HOST`,
    );
    expect(r.stderr).to.not.match(/\n\s+at /);
  });
});
