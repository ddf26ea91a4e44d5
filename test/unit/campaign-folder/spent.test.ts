import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  callLogs,
  readRun,
  runFiles,
  runLayout,
  writeRun,
} from '../../../src/campaign-folder/index.js';
import { GOOD_RUN, MIXED, writeCampaign } from '../../integration/report/fixture.js';

/** What a campaign folder says was spent: the gateways' logs, never twice. */
describe('campaign folder: the model call logs it holds', function () {
  this.timeout(30_000);
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'evalrig-spent-'));
    await writeCampaign(dir, { ...MIXED, evals: ['add-feature'], runs: 1, plan: () => GOOD_RUN });
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it("leaves out a reused run's agent log: the campaign that played it spent that", async () => {
    const reused = runLayout(dir, 'add-feature/without_skill/run-01').dir;
    const read = await readRun(reused);
    if (read.status !== 'ok') throw new Error('unreadable fixture');
    await writeRun(reused, {
      ...read.value.record,
      reused_from: {
        campaign: 'first',
        folder: '/w/out/first',
        run: 'add-feature/without_skill/run-01',
        fingerprint: 'f'.repeat(64),
      },
    });
    await writeFile(runFiles(reused).modelCallsJsonl, '');
    const logs = await callLogs(dir);
    const played = runLayout(dir, 'add-feature/with_skill/run-01').dir;
    expect(logs).to.deep.equal([
      { who: 'agent', file: runFiles(played).modelCallsJsonl },
      { who: 'judge', file: runFiles(played).judgeCallsJsonl },
      { who: 'judge', file: runFiles(reused).judgeCallsJsonl },
    ]);
  });
});
