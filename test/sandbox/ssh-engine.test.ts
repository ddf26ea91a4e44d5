import { expect } from 'chai';
import path from 'node:path';
import { LABELS, listContainers } from '../../src/runtime/index.js';
import { ensureTestImage } from '../../src/image/index.js';
import { requireDocker, testDocker } from '../support/docker.js';
import { campaignOf, cli, runRecords } from '../support/faults.js';
import { startSecondEngine, type SecondEngine } from '../support/second-engine.js';
import { sshAvailable, startSshGateway, type SshGateway } from '../support/ssh-gateway.js';
import {
  executionTurn,
  makeToyWorkspace,
  planningTurn,
  PLAN,
  type ToyWorkspace,
} from '../support/toy.js';

const EXECUTION = [{ message: 'Approved: carry out the plan.', phase: 'execution' }];

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

  before(async function () {
    await requireDocker();
    if (!(await sshAvailable())) this.skip();
    engine = await startSecondEngine();
    gate = await startSshGateway(engine.host);
    await ensureTestImage(testDocker(), { onProgress: () => undefined });
    await engine.loadImage('evalrig-base:bookworm');
    ws = await makeToyWorkspace({
      scripts: { nominal: { turns: [planningTurn(), executionTurn()] } },
      set: {
        conditions: { a: {}, b: {} },
        checks: [{ name: 'tests', run: 'node test.js' }],
        evals: [{ id: 'nominal', prompt: 'Plan multiply.', turns: EXECUTION, runs: 1 }],
      },
      files: { 'PLAN.md': PLAN },
    });
  });
  after(async () => {
    await ws?.cleanup();
    await gate?.stop();
    await engine?.stop();
  });

  it('ssh://root@127.0.0.1:PORT with SSH_AUTH_SOCK: every run plays on the engine behind it', async () => {
    const out = path.join(ws.root, 'ssh');
    const args = ['run', ws.evalSetFile, '--out', out, '--jobs', '2', '--no-report'];
    const running = cli([...args, '--engine', gate.address], { SSH_AUTH_SOCK: gate.agentSocket });
    const seen = new Set<string>();
    let done = false;
    void running.finally(() => {
      done = true;
    });
    while (!done) {
      const campaign = await campaignOf(out);
      if (campaign) {
        for (const c of await listContainers(engine.client(), { [LABELS.campaign]: campaign }))
          seen.add(c.Id);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    const r = await running;
    expect(r.exitCode, r.stderr).to.equal(0);
    expect(seen.size, 'run containers on the engine behind sshd').to.equal(2);
    const records = (await runRecords(out)).map((x) => x.record);
    expect(records).to.have.length(2);
    for (const record of records) {
      expect(record.status, record.error).to.equal('completed');
      expect(record.measures.checks_passed).to.equal(true);
    }
  });
});
