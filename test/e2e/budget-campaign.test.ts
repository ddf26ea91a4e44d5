/**
 * A campaign stopped by its budget resumes to the result of an uninterrupted one: the real
 * Claude Code against the upstream simulator, in three commands on one folder. A pilot run
 * gives one run's cost c; `--runs 4 --max-cost 2.5c` plays one more run and cuts the other two
 * (a run is admitted whole: 2c + c would pass 2.5c); `--max-cost 4c` then plays the two cut
 * runs, since the budget is the campaign's and 2c were spent before. The campaign's account
 * equals, to the token, what the simulator served and four times the pilot's run.
 *
 * Then the campaign of issue 32, six runs at --jobs 2 in three commands: budgets of 3.5 and
 * 4.5 runs' cost, then enough. A turn's cost is learnt from the folder's record before a resume
 * admits its first run, and a fresh folder admits one run until a turn's cost is known, so no
 * run is ever cut half-way: the runs the budget kept back are "not played", nothing is spent
 * again, and the account equals what the upstream billed.
 */
import { expect } from 'chai';
import { readdir, readFile } from 'node:fs/promises';
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

describe('e2e: three commands under --max-cost (3.5 and 4.5 runs, then enough) never cut a run half-way (Claude Code)', function () {
  this.timeout(900_000);
  let sim: UpstreamSimulator;
  let pilotWs: ToyWorkspace;
  let ws: ToyWorkspace;
  let c: { usd: number; tokens: number; requests: number };
  const commands: CliRun[] = [];
  let served: { requests: number; tokens: number };
  const set = (url: string) => ({
    scripts: {},
    set: {
      agent: claudeCodeKeyedTo(url),
      // Two turns: a run admitted without an estimate would be cut after its first.
      evals: [{ id: 'hello', prompt: 'Say done.', turns: [{ message: 'Say done again.' }] }],
    },
  });
  const play = (on: ToyWorkspace, args: string[]): Promise<CliRun> =>
    evalrigRun(on, { [E2E_KEY_ENV]: E2E_KEY }, args);
  const benchmark = (on: ToyWorkspace) =>
    readJson<BenchmarkFile>(path.join(on.outDir, 'benchmark.json'));
  const records = () =>
    Promise.all(
      ['01', '02', '03', '04', '05', '06'].map((n) =>
        readJson<RunRecord>(path.join(ws.outDir, 'runs/hello/default', `run-${n}`, 'run.json')),
      ),
    );
  let afterFirst: RunRecord[];
  let afterSecond: RunRecord[];

  before(requireDocker);
  before(async () => {
    sim = await startUpstreamSimulator({ latencyMs: { min: 0, max: 0 } });
    pilotWs = await makeToyWorkspace(set(sim.url));
    ws = await makeToyWorkspace(set(sim.url));
    const pilot = await play(pilotWs, ['--runs', '1']);
    expect(pilot.exitCode, pilot.stderr).to.equal(0);
    const [row] = (await benchmark(pilotWs)).account!.agent;
    const t = row!.tokens;
    const total = t.input + t.output + t.cache_read + t.cache_write;
    c = { usd: row!.cost_usd, tokens: total, requests: sim.served().requests };
    const before = sim.served();
    for (const runs of [3.5, 4.5, 100]) {
      const args = ['--runs', '6', '--jobs', '2', '--max-cost', (runs * c.usd).toFixed(6)];
      commands.push(await play(ws, args));
      if (runs === 3.5) afterFirst = await records();
      if (runs === 4.5) afterSecond = await records();
    }
    const after = sim.served();
    served = { requests: after.requests - before.requests, tokens: after.tokens - before.tokens };
  });
  after(async () => {
    await sim?.close();
    await pilotWs?.cleanup();
    await ws?.cleanup();
  });

  const played = (rs: RunRecord[]) => rs.filter((r) => r.status === 'completed').length;
  const cutWhole = (rs: RunRecord[]) =>
    rs.filter((r) => r.limit === 'campaign_cost').map((r) => r.turns_completed);

  it('the first command plays 3 runs and keeps 3 back before their first turn, said "not played"', () => {
    expect(commands[0]!.exitCode, commands[0]!.stderr).to.equal(0);
    expect(played(afterFirst)).to.equal(3);
    expect(cutWhole(afterFirst)).to.deep.equal([0, 0, 0]);
    expect(commands[0]!.stdout).to.contain('over 6 run(s) (3 not played)');
    expect(commands[0]!.stdout).to.not.contain('unpriced');
  });

  it('the second knows a turn’s cost from the first: it plays 1 more and keeps 2 back whole', () => {
    expect(commands[1]!.exitCode, commands[1]!.stderr).to.equal(0);
    expect(played(afterSecond)).to.equal(4);
    expect(cutWhole(afterSecond)).to.deep.equal([0, 0]);
    expect(commands[1]!.stdout).to.contain('over 6 run(s) (2 not played)');
  });

  it('the third plays the rest: six runs, none cut half-way, nothing set aside with a call', async () => {
    expect(commands[2]!.exitCode, commands[2]!.stderr).to.equal(0);
    expect(played(await records())).to.equal(6);
    // The runs kept back were set aside before their replay with no call logged.
    const replaced = path.join(ws.outDir, 'replaced');
    const files = await readdir(replaced, { recursive: true }).catch(() => [] as string[]);
    for (const f of files.filter((name) => name.endsWith('.jsonl'))) {
      expect(await readFile(path.join(replaced, f), 'utf8'), f).to.equal('');
    }
    const b = await benchmark(ws);
    expect(b.account!.replayed, 'nothing spent again').to.equal(undefined);
  });

  it('its account equals what the upstream billed: six runs, to the token and the request', async () => {
    const a = (await benchmark(ws)).account!;
    const [row] = a.agent;
    const t = row!.tokens;
    expect(served.requests).to.equal(6 * c.requests);
    expect(row!.model_requests).to.equal(served.requests);
    expect(t.input + t.output + t.cache_read + t.cache_write).to.equal(served.tokens);
    expect(served.tokens).to.equal(6 * c.tokens);
    expect(a.total_cost_usd).to.be.closeTo(6 * c.usd, 1e-6);
  });
});
