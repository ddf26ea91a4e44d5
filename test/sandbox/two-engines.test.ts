import { expect } from 'chai';
import path from 'node:path';
import { LABELS, listContainers } from '../../src/runtime/index.js';
import { ensureTestImage } from '../../src/image/index.js';
import { requireDocker, testDocker } from '../support/docker.js';
import { containersWhile, EXECUTION, measuredOf } from '../support/engines.js';
import { campaignContainers, campaignOf, cli, runRecords, waitFor } from '../support/faults.js';
import { startSecondEngine, type SecondEngine } from '../support/second-engine.js';
import {
  executionTurn,
  makeToyWorkspace,
  planningTurn,
  PLAN,
  type ToyWorkspace,
} from '../support/toy.js';

/**
 * A campaign spread over two engines at once (the machine's and a second one
 * that is driven as remote: nothing mounted, trees in as archives, stops
 * synced back) measures exactly what the same campaign measures on one.
 */
describe('campaign over two engines', function () {
  this.timeout(600_000);
  let engine: SecondEngine;
  let ws: ToyWorkspace;

  before(async function () {
    await requireDocker();
    if (process.getuid?.() !== 0) this.skip();
    // Nothing loaded there: the campaign ships the test image itself.
    engine = await startSecondEngine();
    await ensureTestImage(testDocker(), { onProgress: () => undefined });
    ws = await makeToyWorkspace({
      scripts: {
        nominal: { turns: [planningTurn(), executionTurn()] },
        forgets: { turns: [planningTurn(), executionTurn({ refresh: false })] },
      },
      set: {
        conditions: { a: {}, b: {} },
        checks: [{ name: 'tests', run: 'node test.js' }],
        evals: [
          { id: 'nominal', prompt: 'Plan multiply.', turns: EXECUTION, runs: 2 },
          { id: 'forgets', prompt: 'Plan multiply.', turns: EXECUTION, runs: 2 },
        ],
      },
      files: { 'PLAN.md': PLAN },
    });
  });
  after(async () => {
    await ws?.cleanup();
    await engine?.stop();
  });

  it('plays on both engines and measures what one engine measures', async () => {
    const one = path.join(ws.root, 'one');
    const two = path.join(ws.root, 'two');
    const single = await cli(['run', ws.evalSetFile, '--out', one, '--jobs', '2', '--no-report']);
    expect(single.exitCode, single.stderr).to.equal(0);
    const spreading = cli([
      'run',
      ws.evalSetFile,
      '--out',
      two,
      '--jobs',
      '2',
      '--no-report',
      '--engine',
      'unix:///var/run/docker.sock',
      '--engine',
      engine.host,
    ]);
    const held = await containersWhile(spreading, two, {
      first: testDocker(),
      second: engine.client(),
    });
    const spread = await spreading;
    expect(spread.exitCode, spread.stderr).to.equal(0);
    expect(held.first, 'runs on the first engine').to.be.greaterThan(0);
    expect(held.second, 'runs on the second engine').to.be.greaterThan(0);
    expect(held.first! + held.second!).to.equal(8);
    const a = await measuredOf(one);
    const b = await measuredOf(two);
    expect(Object.keys(a)).to.have.length(8);
    expect(b).to.deep.equal(a);
  });
  it('an engine killed mid-campaign fails only its runs in flight, for the harness: the same command plays them again on the engine left', async () => {
    const slow = await makeToyWorkspace({
      scripts: { slow: { turns: [{ actions: [{ sleep: 2 }, { stop: 'conformant' }] }] } },
      set: { conditions: { a: {}, b: {} }, evals: [{ id: 'slow', prompt: 'wait', runs: 5 }] },
    });
    try {
      const args = ['run', slow.evalSetFile, '--out', slow.outDir, '--jobs', '1', '--no-report'];
      const engines = ['--engine', 'unix:///var/run/docker.sock', '--engine', engine.host];
      const child = cli([...args, ...engines]);
      // Once the second engine holds a run of the campaign, it dies.
      const second = engine.client();
      for (;;) {
        const campaign = await campaignOf(slow.outDir);
        if (campaign && (await listContainers(second, { [LABELS.campaign]: campaign })).length > 0)
          break;
        await new Promise((r) => setTimeout(r, 100));
      }
      await engine.kill();
      const r = await child;
      // The runs in flight there failed for the harness (the engine stopped answering): they
      // say nothing of the agent, so the same command plays each once more, on the engine left.
      const lost = [
        ...r.stderr.matchAll(
          /: failed for the harness \(start: the Docker engine at (\S+) stopped answering/gu,
        ),
      ];
      expect(lost.length, r.stderr).to.be.within(1, 4);
      for (const m of lost) expect(m[1]).to.equal(engine.host);
      expect(r.stderr).to.contain(`${lost.length} played once more after a harness failure`);
      expect(r.exitCode, r.stderr).to.equal(0);
      const records = (await runRecords(slow.outDir)).map((x) => x.record);
      expect(records).to.have.length(10);
      expect(records.filter((x) => x.status === 'completed')).to.have.length(10);
      // Nothing is left to replay: the resume plays none.
      const again = await cli([...args, '--engine', 'unix:///var/run/docker.sock']);
      expect(again.exitCode, again.stderr).to.equal(0);
      expect(again.stderr).to.contain('0 played, 10 skipped');
    } finally {
      await engine.restart();
      await slow.cleanup();
    }
  });
  it('evalrig killed (SIGKILL): the reapers remove its containers on both engines', async () => {
    const slow = await makeToyWorkspace({
      scripts: { slow: { turns: [{ actions: [{ sleep: 30 }, { stop: 'conformant' }] }] } },
      set: { conditions: { a: {}, b: {} }, evals: [{ id: 'slow', prompt: 'wait', runs: 2 }] },
    });
    try {
      const child = cli([
        'run',
        slow.evalSetFile,
        '--out',
        slow.outDir,
        '--jobs',
        '1',
        '--no-report',
        '--engine',
        'unix:///var/run/docker.sock',
        '--engine',
        engine.host,
      ]);
      const engines = { first: testDocker(), second: engine.client() };
      await waitFor(
        async () =>
          (await campaignContainers(engines.first, slow.outDir)) > 0 &&
          (await campaignContainers(engines.second, slow.outDir)) > 0,
        120_000,
        'runs on both engines',
      );
      child.kill('SIGKILL');
      await child;
      await waitFor(
        async () =>
          (await campaignContainers(engines.first, slow.outDir)) === 0 &&
          (await campaignContainers(engines.second, slow.outDir)) === 0,
        15_000,
        'no container of the campaign on either engine',
      );
    } finally {
      await slow.cleanup();
    }
  });
});
