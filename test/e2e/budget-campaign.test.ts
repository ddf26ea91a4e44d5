/**
 * A campaign stopped by its budget resumes to the result of an uninterrupted one: the real
 * Claude Code against the upstream simulator, in three commands on one folder. A pilot run
 * gives one run's cost c; `--runs 4 --max-cost 2.5c` plays one more run and cuts the other two
 * (a run is admitted whole: 2c + c would pass 2.5c); `--max-cost 4c` then plays the two cut
 * runs, since the budget is the campaign's and 2c were spent before. The campaign's account
 * equals, to the token, what the simulator served and four times the pilot's run.
 */
import { expect } from 'chai';
import path from 'node:path';
import type { RunRecord } from '../../src/artifacts/index.js';
import type { BenchmarkFile } from '../../src/artifacts/schemas/benchmark.js';
import { startUpstreamSimulator, type UpstreamSimulator } from '../../src/model-stand-in/index.js';
import { readJson } from '../support/campaign.js';
import { requireDocker } from '../support/docker.js';
import { evalrigRun, makeToyWorkspace, type CliRun, type ToyWorkspace } from '../support/toy.js';
import { claudeCodeKeyedTo, E2E_KEY, E2E_KEY_ENV } from '../support/witness-evals.js';

const RUN_DIRS = ['run-01', 'run-02', 'run-03', 'run-04'];

describe('e2e: a campaign stopped by its budget resumes to the uninterrupted result (Claude Code)', function () {
  this.timeout(600_000);
  let sim: UpstreamSimulator;
  let ws: ToyWorkspace;
  let runDir: (name: string) => string;
  const play = (args: string[]): Promise<CliRun> =>
    evalrigRun(ws, { [E2E_KEY_ENV]: E2E_KEY }, args);
  const status = async (name: string) =>
    (await readJson<RunRecord>(path.join(runDir(name), 'run.json'))).status;
  /** The one condition's agent figures in benchmark.json's account. */
  const account = async () => {
    const doc = await readJson<BenchmarkFile>(path.join(ws.outDir, 'benchmark.json'));
    const [row] = doc.account!.agent;
    const t = row!.tokens;
    return {
      runs: row!.runs,
      usd: row!.cost_usd,
      tokens: t.input + t.output + t.cache_read + t.cache_write,
    };
  };
  let pilot: { usd: number; tokens: number };
  let cut: CliRun;
  let resumed: CliRun;
  let servedAfterCut: number;

  before(requireDocker);
  before(async () => {
    sim = await startUpstreamSimulator({ latencyMs: { min: 0, max: 0 } });
    ws = await makeToyWorkspace({
      scripts: {},
      set: {
        agent: claudeCodeKeyedTo(sim.url),
        evals: [{ id: 'hello', prompt: 'Say done.' }],
      },
    });
    runDir = (name) => path.join(ws.outDir, 'runs', 'hello', 'default', name);
    const first = await play(['--runs', '1']);
    expect(first.exitCode, first.stderr).to.equal(0);
    const a = await account();
    pilot = { usd: a.usd, tokens: a.tokens };
    cut = await play(['--runs', '4', '--max-cost', (2.5 * pilot.usd).toFixed(6)]);
    servedAfterCut = sim.served().requests;
    resumed = await play(['--runs', '4', '--max-cost', (4 * pilot.usd).toFixed(6)]);
  });
  after(async () => {
    await sim?.close();
    await ws?.cleanup();
  });

  it('the cut command spends no more than its budget and cuts whole runs, before they start', async () => {
    expect(cut.exitCode, cut.stderr).to.equal(0);
    expect(cut.stderr).to.contain('2 run(s) cut');
    // One run played after the pilot: the two cut ones never reached the upstream.
    expect(servedAfterCut).to.equal(2 * (sim.served().requests / 4));
  });

  it('the resume plays the cut runs: all four complete, the campaign within its budget', async () => {
    expect(resumed.exitCode, resumed.stderr).to.equal(0);
    expect(resumed.stderr).to.contain('the budget of');
    for (const name of RUN_DIRS) expect(await status(name), name).to.equal('completed');
  });

  it("the account equals what the simulator served and four times the pilot's run", async () => {
    const a = await account();
    expect(a.runs).to.equal(4);
    expect(a.tokens).to.equal(sim.served().tokens);
    expect(a.tokens).to.equal(4 * pilot.tokens);
    expect(a.usd).to.be.closeTo(4 * pilot.usd, 1e-9);
  });
});
