/**
 * Every run the agent touched is counted: in real containers, a service beside the agent
 * (test/fixtures/attrition) that the agent's own turn ends (it asks it to exit) or exhausts
 * (it asks it to hold memory past its 48m limit) fails its run as the agent's failure, counted
 * against its condition (its checks not passed) and not replayed by a resume. A service that
 * never becomes ready fails its runs before the agent's first turn: the harness's, left out of
 * the measures and replayed by the same command.
 */
import { expect } from 'chai';
import { copyFile, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { RunRecord } from '../../src/artifacts/index.js';
import type { CampaignResult } from '../../src/campaign/index.js';
import { writeReport, type BenchmarkFile } from '../../src/report/index.js';
import { playCampaign, readJson } from '../support/campaign.js';
import { requireDocker } from '../support/docker.js';
import { makeToyWorkspace, type ToyWorkspace } from '../support/toy.js';

const FIXTURES = 'test/fixtures/attrition';

/** The service: reached as svc:8080, ready once that port answers. */
function service(ready: Record<string, unknown>): Record<string, unknown> {
  return {
    dockerfile: 'service/Dockerfile',
    ready,
    resources: { memory: '48m', cpus: 1, pids: 64 },
  };
}

describe('e2e: a failure while the agent had control counts against its condition', function () {
  this.timeout(900_000);
  let ws: ToyWorkspace;
  let first: CampaignResult;
  let second: CampaignResult;
  const record = (evalId: string, condition: string) =>
    readJson<RunRecord>(path.join(ws.outDir, 'runs', evalId, condition, 'run-01', 'run.json'));

  before(requireDocker);
  before(async () => {
    const turn = { actions: [{ run: 'node /evalset/poke.cjs' }, { stop: 'conformant' }] };
    ws = await makeToyWorkspace({
      scripts: { touched: { turns: [turn] }, unready: { turns: [turn] } },
      set: {
        conditions: {
          plain: {},
          exits: { env: { MODE: 'exit' } },
          grows: { env: { MODE: 'grow' } },
        },
        baseline_condition: 'plain',
        services: { svc: service({ port: 8080, timeout: 60 }) },
        checks: [{ name: 'tests', run: 'node test.js' }],
        evals: [
          { id: 'touched', prompt: 'Look at the service.', runs: 1 },
          {
            id: 'unready',
            prompt: 'Look at the service.',
            runs: 1,
            services: { svc: service({ command: 'false', timeout: 2 }) },
          },
        ],
      },
    });
    const setDir = path.dirname(ws.evalSetFile);
    await mkdir(path.join(setDir, 'service'), { recursive: true });
    for (const f of ['Dockerfile', 'service.cjs']) {
      await copyFile(path.join(FIXTURES, f), path.join(setDir, 'service', f));
    }
    await copyFile(path.join(FIXTURES, 'poke.cjs'), path.join(setDir, 'poke.cjs'));
    first = await playCampaign(ws, { jobs: 2 });
    second = await playCampaign(ws, { jobs: 2 });
  });
  after(() => ws?.cleanup());

  it('the service the agent asked to exit: failed in phase service, the agent’s, its checks not passed', async () => {
    const r = await record('touched', 'exits');
    expect(r.status, r.error).to.equal('failed');
    expect(r.phase).to.equal('service');
    expect(r.failure?.class).to.equal('agent');
    expect(r.failure?.reason).to.match(
      /^service svc died during turn 1 \(exit 3 .*while the agent had control$/u,
    );
    expect(r.services![0]!.failure!.exit_code).to.equal(3);
    expect(r.measures.checks_passed).to.equal(false);
  });

  it('the service whose memory the agent exhausted: killed out of memory, the agent’s', async () => {
    const r = await record('touched', 'grows');
    expect(r.status, r.error).to.equal('failed');
    expect(r.failure?.class).to.equal('agent');
    const died = r.services![0]!.failure!;
    expect(died.oom_killed, JSON.stringify(died)).to.equal(true);
    expect(r.measures.checks_passed).to.equal(false);
  });

  it('the run whose service stayed alive completes and passes', async () => {
    const r = await record('touched', 'plain');
    expect(r.status, r.error).to.equal('completed');
    expect(r.failure).to.equal(undefined);
    expect(r.measures.checks_passed).to.equal(true);
  });

  it('a service never ready fails its runs before the first turn: the harness’s', async () => {
    for (const condition of ['plain', 'exits', 'grows']) {
      const r = await record('unready', condition);
      expect(r.status, condition).to.equal('failed');
      expect(r.phase, condition).to.equal('start');
      expect(r.turns_completed).to.equal(0);
      expect(r.failure?.class, condition).to.equal('harness');
    }
  });

  it('the harness’s failures are played once more by the command, and again by the next; only they', () => {
    expect(first).to.deep.include({ played: 6, failed: 5, retried: 3 });
    expect(first.failedBy).to.deep.equal({ harness: 3, model_api: 0, agent: 2, timeout: 0 });
    expect(second).to.deep.include({ played: 3, skipped: 3, failed: 3, retried: 3 });
    expect(second.failedBy).to.deep.equal({ harness: 3, model_api: 0, agent: 0, timeout: 0 });
  });

  it('benchmark.json counts the agent’s failures in the measures and by class; the report shows them', async () => {
    await writeReport(ws.outDir);
    const b = await readJson<BenchmarkFile>(path.join(ws.outDir, 'benchmark.json'));
    const by = Object.fromEntries(b.conditions.map((c) => [c.condition, c]));
    for (const condition of ['exits', 'grows']) {
      const c = by[condition]!;
      expect(c.runs, condition).to.equal(2);
      expect(c.measured, condition).to.equal(1);
      expect(c.failures).to.deep.equal({ harness: 1, model_api: 0, agent: 1, timeout: 0 });
      expect(c.measures.checks_passed).to.include({ successes: 0, n: 1 });
    }
    expect(by.plain!.measures.checks_passed).to.include({ successes: 1, n: 1 });
    const md = await readFile(path.join(ws.outDir, 'report.md'), 'utf8');
    expect(md).to.match(
      /\| failed by: harness \(left out\) \/ model API \/ agent \/ time-out \(counted\) \| 1 \/ 0 \/ 0 \/ 0 \| 1 \/ 0 \/ 1 \/ 0 \| 1 \/ 0 \/ 1 \/ 0 \|/u,
    );
    const baseline = await readFile(path.join(ws.outDir, 'BASELINE.md'), 'utf8');
    expect(baseline).to.include(
      '| failures (exits) | 1 counted against the condition (model API 0, agent 1, time-out 0); 1 by the harness, left out of the measures |',
    );
  });
});
