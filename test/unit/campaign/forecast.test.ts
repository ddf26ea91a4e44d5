import { expect } from 'chai';
import path from 'node:path';
import {
  forecastLines,
  planRuns,
  runsToDetect,
  statedPerRun,
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
    const lines = forecastLines(set, planned, per, 4);
    expect(lines[0]).to.include(`${planned.length} run(s), ${turns} turn(s)`);
    expect(lines[1]).to.include(`${(turns * 0.5).toFixed(2)} USD`);
    expect(lines[1]).to.include(`${Math.ceil((turns * 10) / 4)} s at --jobs 4`);
  });
});
