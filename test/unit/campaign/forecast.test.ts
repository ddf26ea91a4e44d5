import { expect } from 'chai';
import path from 'node:path';
import {
  forecast,
  forecastLines,
  planRuns,
  runsToDetect,
  statedPerRun,
  type PerRun,
} from '../../../src/campaign/index.js';
import { loadEvalSet } from '../../../src/config/index.js';
import { minimumDetectableDifference } from '../../../src/report/index.js';

describe('evalrig plan', () => {
  it('finds the fewest runs per condition whose exact power detects the difference', () => {
    const n = runsToDetect(0.4, 0.5, 60)!;
    const at = (k: number) => minimumDetectableDifference(k, k, { baseline: 0.5 });
    expect(at(n)).to.be.at.most(0.4);
    expect(at(n - 1) ?? 1).to.be.above(0.4);
    expect(runsToDetect(0.05, 0.5, 20)).to.equal(null); // more than 20 runs a side
  });

  it('sums stated per-turn figures over the planned runs and turns; wall time at --jobs', async () => {
    const set = await loadEvalSet(path.resolve('examples/claude-code/evals.json'));
    const planned = planRuns(set, { runs: 8 });
    const turns = planned.reduce((n, p) => n + 1 + p.eval.turns.length, 0);
    const per = () =>
      statedPerRun(turns / planned.length, { tokens: 1000, costUsd: 0.5, seconds: 10 });
    const f = forecast(set, planned, per, 4);
    expect(f.cost_usd).to.deep.equal({ expected: turns * 0.5, error: null });
    const lines = forecastLines(f);
    expect(lines[0]).to.include(`${planned.length} run(s), ${turns} turn(s)`);
    expect(lines[1]).to.include(`${(turns * 0.5).toFixed(2)} USD`);
    expect(lines[1]).to.include(`${Math.ceil((turns * 10) / 4)} s at --jobs 4`);
    expect(lines[2]).to.equal('errors: none stated (stated figures carry no spread)');
  });

  it("states 2 sd of a pilot's spread: each run's own, and the shared mean's uncertainty", async () => {
    const set = await loadEvalSet(path.resolve('examples/claude-code/evals.json'));
    const planned = planRuns(set, { runs: 3 });
    const conditions = new Set(planned.map((p) => p.condition.name)).size;
    // Every run's figure from its condition's 4 pilot runs: cost 1 USD, sd 0.5.
    const per = (p: { condition: { name: string } }): PerRun => ({
      tokens: 100,
      costUsd: 1,
      seconds: 10,
      spread: { tokens: 20, costUsd: 0.5, seconds: 2 },
      runs: 4,
      key: p.condition.name,
      from: 'pilot',
    });
    const f = forecast(set, planned, per, 1);
    const k = planned.length / conditions; // runs sharing one condition's mean
    const sd = (s: number) => Math.sqrt(conditions * s * s * (k + (k * k) / 4));
    expect(f.cost_usd.expected).to.equal(planned.length);
    expect(f.cost_usd.error).to.be.closeTo(2 * sd(0.5), 1e-9);
    expect(f.tokens.error).to.be.closeTo(2 * sd(20), 1e-9);
    expect(f.wall_s).to.deep.include({ expected: planned.length * 10 });
    expect(forecastLines(f)[1]).to.include(`± ${(2 * sd(0.5)).toFixed(2)} USD`);

    // One pilot run says nothing of the spread: no error rather than ± 0.
    const single = forecast(set, planned, (p) => ({ ...per(p), spread: null, runs: 1 }), 1);
    expect(single.cost_usd.error).to.equal(null);
    expect(forecastLines(single)[2]).to.match(/none stated \(the pilot has one run of /u);
  });
});
