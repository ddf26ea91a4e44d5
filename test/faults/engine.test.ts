import { expect } from 'chai';
import { ensureTestImage } from '../../src/image/index.js';
import { LABELS, type DockerClient } from '../../src/runtime/index.js';
import { SERVICE_LABEL } from '../../src/sandbox/index.js';
import { BASE_IMAGE, requireDocker } from '../support/docker.js';
import { campaignContainers, campaignOf, cli, runRecords, waitFor } from '../support/faults.js';
import { startSecondEngine, type SecondEngine } from '../support/second-engine.js';
import { makeToyWorkspace, type ToyWorkspace } from '../support/toy.js';

/**
 * A second engine, started by these tests, is killed or frozen while a
 * campaign plays on it. The campaign must stop as one event, with one message
 * naming the engine, the runs in flight recorded as failed by the engine
 * (phase named), no run started after; once the engine is back, a resume
 * plays exactly the rest.
 */
describe('faults: the Docker engine fails mid-campaign', function () {
  this.timeout(300_000);
  let engine: SecondEngine;
  const RUNS = 4; // per condition: 8 runs, 2 at a time, ~2 s each

  before(async function () {
    await requireDocker();
    if (process.getuid?.() !== 0) this.skip();
    engine = await startSecondEngine();
    await engine.loadImage(BASE_IMAGE);
    await ensureTestImage(engine.client(), { onProgress: () => undefined });
  });
  // A test that failed half-way leaves the engine as it was: each starts from one that answers.
  beforeEach(async () => {
    await engine.ready();
  });
  after(async () => {
    await engine?.stop();
  });

  async function workspace(): Promise<ToyWorkspace> {
    return makeToyWorkspace({
      scripts: { slow: { turns: [{ actions: [{ sleep: 2 }, { stop: 'conformant' }] }] } },
      set: {
        conditions: { a: {}, b: {} },
        evals: [{ id: 'slow', prompt: 'wait', runs: RUNS }],
      },
    });
  }

  const env = (): Record<string, string> => ({ DOCKER_HOST: engine.host });
  const start = (ws: ToyWorkspace) =>
    cli(['run', ws.evalSetFile, '--out', ws.outDir, '--jobs', '2', '--no-report'], env());

  /** Plays `test` on a fresh workspace; the engine is thawed and the workspace removed after. */
  async function inWorkspace(test: (ws: ToyWorkspace) => Promise<void>): Promise<void> {
    const ws = await workspace();
    try {
      await test(ws);
    } finally {
      engine.thaw();
      await ws.cleanup();
    }
  }

  /** Awaits the campaign on a frozen engine, thawing it whatever the outcome. */
  async function thawedAfter<T>(child: Promise<T>): Promise<T> {
    try {
      return await child;
    } finally {
      engine.thaw();
    }
  }

  /** The reaper, still sweeping once the engine answers, removes what the campaign left. */
  async function noContainerLeft(ws: ToyWorkspace): Promise<void> {
    await waitFor(
      async () => (await campaignContainers(engine.client(), ws.outDir)) === 0,
      20_000,
      'no container left',
    );
  }

  /** Waits until a run has finished and two play: the engine then fails mid-campaign. */
  async function midCampaign(ws: ToyWorkspace): Promise<number> {
    const client = engine.client();
    await waitFor(
      async () =>
        (await runRecords(ws.outDir)).length >= 1 &&
        (await campaignContainers(client, ws.outDir)) >= 2,
      120_000,
      'a finished run and two in flight',
    );
    return (await runRecords(ws.outDir)).length;
  }

  /** After the fault: what was recorded, then a resume plays exactly the rest. */
  async function expectResumeFinishesTheRest(ws: ToyWorkspace): Promise<void> {
    const before = await runRecords(ws.outDir);
    const finished = before.filter((r) => r.record.status === 'completed').length;
    const again = await start(ws);
    expect(again.exitCode, again.stderr).to.equal(0);
    expect(again.stderr).to.contain(`${2 * RUNS - finished} played, ${finished} skipped`);
    const after = await runRecords(ws.outDir);
    expect(after.map((r) => r.record.status)).to.deep.equal(
      Array.from({ length: 2 * RUNS }, () => 'completed'),
    );
    expect(await campaignContainers(engine.client(), ws.outDir)).to.equal(0);
  }

  function expectOneEngineMessage(stderr: string): void {
    const all = stderr.split('\n');
    const lines = all.filter((l) => l.includes('stopped answering'));
    expect(lines, stderr).to.have.length(1);
    expect(lines[0]).to.contain(`the Docker engine at ${engine.host}`);
    expect(lines[0]).to.contain('run the same command again once the engine answers');
    // No raw error per run besides the one message, no stack trace.
    const others = all.filter((l) => !l.includes('stopped answering')).join('\n');
    expect(others).to.not.match(/ECONNREFUSED|EPIPE|ENOENT|internal error|\n\s+at /u);
  }

  /**
   * The runs in flight when the engine failed (at most --jobs) are failed by
   * the engine, each naming its phase; every completed run ended before the
   * fault; nothing else was recorded.
   */
  async function expectInFlightFailedByEngine(ws: ToyWorkspace, faultAt: number): Promise<void> {
    const records = await runRecords(ws.outDir);
    const failed = records.filter((r) => r.record.status === 'failed');
    expect(failed.length).to.be.at.most(2);
    for (const f of failed)
      expect(f.record.error).to.match(
        /^(prepare|start|turn 1|collect|checks|record): the Docker engine at /u,
      );
    for (const { record } of records.filter((r) => r.record.status !== 'failed')) {
      expect(record.status).to.equal('completed');
      // A run finishing at the very moment of the fault is fine; one after it is not.
      expect(Date.parse(record.finished_at)).to.be.below(faultAt + 1000);
    }
  }

  it('killed (SIGKILL): one message, in-flight runs failed by the engine, the rest on resume', () =>
    inWorkspace(async (ws) => {
      const child = start(ws);
      await midCampaign(ws);
      const stoppedAt = Date.now();
      await engine.kill();
      const r = await child;
      expect(Date.now() - stoppedAt).to.be.below(15_000);
      expect(r.exitCode, r.stderr).to.equal(1);
      expectOneEngineMessage(r.stderr);
      await expectInFlightFailedByEngine(ws, stoppedAt);
      await engine.restart();
      await expectResumeFinishesTheRest(ws);
    }));

  it('frozen (SIGSTOP): noticed within its bound, one message; the rest on resume once thawed', () =>
    inWorkspace(async (ws) => {
      const child = start(ws);
      await midCampaign(ws);
      const frozenAt = Date.now();
      engine.freeze();
      const r = await thawedAfter(child);
      // Two pings unanswered, 2 s apart, 5 s each: about 14 s.
      expect(Date.now() - frozenAt).to.be.below(25_000);
      expect(r.exitCode, r.stderr).to.equal(1);
      expectOneEngineMessage(r.stderr);
      await expectInFlightFailedByEngine(ws, frozenAt);
      await expectResumeFinishesTheRest(ws);
    }));

  it('frozen: doctor and run answer within their bound, exit 1, no stack', () =>
    inWorkspace(async (ws) => {
      engine.freeze();
      for (const args of [
        ['doctor', '--no-agents'],
        ['run', ws.evalSetFile, '--out', ws.outDir],
      ]) {
        const t0 = Date.now();
        const r = await cli(args, env());
        expect(Date.now() - t0, args[0]).to.be.below(10_000);
        expect(r.exitCode, r.stderr).to.equal(1);
        expect(r.stderr).to.contain(`no Docker engine answers at ${engine.host}`);
        expect(r.stderr).to.not.match(/\n\s+at /u);
      }
    }));

  it('frozen: SIGINT exits 130 within 5 s saying what it could not remove; the reaper removes it once thawed', () =>
    inWorkspace(async (ws) => {
      const child = start(ws);
      await midCampaign(ws);
      engine.freeze();
      const t0 = Date.now();
      child.kill('SIGINT');
      const r = await thawedAfter(child);
      expect(Date.now() - t0).to.be.below(5_500);
      expect(r.exitCode).to.equal(130);
      expect(r.stderr).to.contain('did not answer');
      await noContainerLeft(ws);
    }));

  it('frozen: two SIGINTs end evalrig at once', () =>
    inWorkspace(async (ws) => {
      const child = start(ws);
      await midCampaign(ws);
      engine.freeze();
      child.kill('SIGINT');
      await new Promise((r) => setTimeout(r, 200));
      const t0 = Date.now();
      child.kill('SIGINT');
      const r = await thawedAfter(child);
      expect(Date.now() - t0).to.be.below(1_000);
      expect(r.exitCode).to.equal(130);
      await noContainerLeft(ws);
    }));

  /** Containers and networks labelled with the campaign (a run's services and its network among them). */
  async function labelled(client: DockerClient, campaign: string): Promise<number> {
    const filters = { label: [`${LABELS.campaign}=${campaign}`] };
    const containers = await client.docker.listContainers({ all: true, filters });
    const networks = await client.docker.listNetworks({ filters });
    return containers.length + networks.length;
  }

  /** The sandbox whose agent plays its turn (its service ready before), if any. */
  async function agentPlaying(client: DockerClient, campaign: string): Promise<string | undefined> {
    const filters = { label: [`${LABELS.campaign}=${campaign}`] };
    for (const c of await client.docker.listContainers({ filters })) {
      if (c.Labels[SERVICE_LABEL]) continue;
      const top = await client.docker
        .getContainer(c.Id)
        .top()
        .catch(() => ({ Processes: [] as string[][] }));
      if (top.Processes.some((p: string[]) => p.join(' ').includes('evalrig-agent'))) return c.Id;
    }
    return undefined;
  }

  /**
   * The engine dies under a run with a service. evalrig cannot go on without
   * its only engine: it stops (exit 1, one message), as it does without
   * services. Its reaper outlives it and keeps sweeping for a minute: once the
   * engine is back, the service, the sandbox and the run's private network go
   * within 10 s, with no evalrig running. (A later `evalrig run` of the folder
   * removes them too, when the engine was away longer than the reaper waits.)
   */
  it('killed under a run with a service: once it is back, the reaper leaves no service container or network within 10 s', async () => {
    const js = `require('net').createServer((s) => { s.on('error', () => {}); s.end('hi\\n'); }).listen(7000)`;
    const served = await makeToyWorkspace({
      scripts: { slow: { turns: [{ actions: [{ sleep: 60 }, { stop: 'conformant' }] }] } },
      set: {
        services: {
          // Ready by a check inside it: this engine's bridges carry no traffic (no iptables).
          echo: {
            image: BASE_IMAGE,
            command: ['node', '-e', js],
            ready: { command: 'bash -c "exec 3<>/dev/tcp/127.0.0.1/7000"' },
          },
        },
        evals: [{ id: 'slow', prompt: 'wait', runs: 1 }],
      },
    });
    try {
      const child = start(served);
      let campaign: string | undefined;
      const client = engine.client();
      await waitFor(
        async () => {
          campaign ??= await campaignOf(served.outDir);
          if (!campaign) return false;
          return (await agentPlaying(client, campaign)) !== undefined;
        },
        120_000,
        'a run with its service playing',
      );
      // The run's private network is there too: what the engine keeps across its death.
      const networks = await client.docker.listNetworks({
        filters: { label: [`${LABELS.campaign}=${campaign!}`] },
      });
      expect(networks).to.have.length(1);
      await engine.kill();
      const r = await child;
      expect(r.exitCode, r.stderr).to.equal(1);
      expectOneEngineMessage(r.stderr);
      await engine.restart();
      const back = Date.now();
      await waitFor(
        async () => (await labelled(engine.client(), campaign!)) === 0,
        10_000,
        'nothing left',
      );
      process.stdout.write(
        `      nothing labelled by the run ${Date.now() - back} ms after the engine came back\n`,
      );
    } finally {
      await served.cleanup();
    }
  });
});
