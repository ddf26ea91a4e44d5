import { expect } from 'chai';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  campaignFiles,
  playedRuns,
  readRun,
  replayedRuns,
  runFiles,
  runLayout,
  setAsideCallLogs,
  writeRun,
} from '../../../src/campaign-folder/index.js';
import { GOOD_RUN, MIXED, writeCampaign } from '../../integration/report/fixture.js';

const line = (input: number) =>
  `${JSON.stringify({ model: 'm', outcome: 'complete', tokens: { input, output: 0, cacheRead: 0, cacheWrite: 0 } })}\n`;

/** What earlier commands played: the turns and calls the budget learns from, and the replays. */
describe('campaign folder: the runs played and replayed', function () {
  this.timeout(30_000);
  let dir: string;
  const played = () => runLayout(dir, 'add-feature/with_skill/run-01').dir;
  const reused = () => runLayout(dir, 'add-feature/without_skill/run-01').dir;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'evalrig-played-'));
    await writeCampaign(dir, { ...MIXED, evals: ['add-feature'], runs: 1, plan: () => GOOD_RUN });
    await writeFile(runFiles(played()).modelCallsJsonl, line(100) + line(200));
    const read = await readRun(reused());
    if (read.status !== 'ok') throw new Error('unreadable fixture');
    await writeRun(reused(), {
      ...read.value.record,
      reused_from: {
        campaign: 'first',
        folder: '/w/out/first',
        run: 'add-feature/without_skill/run-01',
        fingerprint: 'f'.repeat(64),
      },
    });
    await writeFile(runFiles(reused()).modelCallsJsonl, line(999));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it("gives each run's completed turns and its gateway's calls; a reused run is another campaign's", async () => {
    const read = await readRun(played());
    if (read.status !== 'ok') throw new Error('unreadable fixture');
    const runs = await playedRuns(dir);
    expect(runs).to.have.length(1);
    expect(runs[0]!.turns).to.equal(read.value.record.turns_completed);
    expect(runs[0]!.calls.map((c) => c.tokens.input)).to.deep.equal([100, 200]);
  });

  it('gives the calls set aside before each replay, by run, the judge’s with the agent’s', async () => {
    const key = 'add-feature/with_skill/run-01';
    await writeFile(runFiles(played()).judgeCallsJsonl, line(5));
    await setAsideCallLogs(dir, played(), key);
    await writeFile(runFiles(played()).modelCallsJsonl, line(7));
    await setAsideCallLogs(dir, played(), key);
    const runs = await replayedRuns(dir);
    expect(runs.map((r) => r.key)).to.deep.equal([key]);
    expect(runs[0]!.calls.map((c) => c.tokens.input).sort()).to.deep.equal([100, 200, 5, 7].sort());
  });

  it('gives nothing where nothing was replayed, and skips a folder in the wrong place', async () => {
    expect(await replayedRuns(dir)).to.deep.equal([]);
    await mkdir(path.join(campaignFiles(dir).replaced, 'stray'), { recursive: true });
    expect(await replayedRuns(dir)).to.deep.equal([]);
  });
});
