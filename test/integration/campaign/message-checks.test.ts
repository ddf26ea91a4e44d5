import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { RunRecord, StopRecord } from '../../../src/artifacts/index.js';
import { formatSummaryTable, writeReport, type BenchmarkFile } from '../../../src/report/index.js';
import { playCampaign, readJson } from '../../support/campaign.js';
import { requireDocker } from '../../support/docker.js';
import { makeToyWorkspace, type AgentAction, type ToyWorkspace } from '../../support/toy.js';

/** One turn: the agent prints `said` (paragraphs: its last one is the final message) and stops. */
function saying(said: string[], kind: string): { turns: { actions: AgentAction[] }[] } {
  return { turns: [{ actions: [...said.map((text) => ({ say: text })), { stop: kind }] }] };
}

describe('campaign: message checks over what the scripted agent says, in real containers', function () {
  before(requireDocker);
  this.timeout(300_000);

  let ws: ToyWorkspace;
  const run = (evalId: string): Promise<RunRecord> =>
    readJson<RunRecord>(path.join(ws.outDir, 'runs', evalId, 'default', 'run-01', 'run.json'));
  const check = (record: RunRecord, name: string) =>
    record.message_checks!.find((c) => c.name === name)!;

  before(async () => {
    ws = await makeToyWorkspace({
      scripts: {
        'gh-missing': saying(
          ['I wrote the plan but could not open the pull request.', '', 'gh: command not found'],
          'awaiting-approval',
        ),
        clean: saying(
          ['Working on it...', '', 'Opened a draft PR with the plan; ready for your review.'],
          'awaiting-approval',
        ),
        'no-hand-over': saying(['Still going: a draft is next.'], 'working'),
      },
      set: {
        message_checks: [
          { name: 'says_draft', stops: 'hand_over', rule: { matches: '\\bdraft\\b', flags: 'i' } },
        ],
        evals: [
          { id: 'gh-missing', prompt: 'Plan, open a draft PR, hand over.' },
          { id: 'clean', prompt: 'Plan, open a draft PR, hand over.' },
          { id: 'no-hand-over', prompt: 'Keep working.' },
        ],
      },
    });
    const result = await playCampaign(ws, { jobs: 2 });
    expect(result.played).to.equal(3);
  });
  after(() => ws.cleanup());

  it('keeps the last paragraph of stdout as the stop final message', async () => {
    const stop = await readJson<StopRecord>(
      path.join(ws.outDir, 'runs/gh-missing/default/run-01/stops/stop-01.json'),
    );
    expect(stop.hand_over).to.equal(true);
    expect(stop.final_message).to.equal('gh: command not found');
  });

  it('fails no_missing_gh on a hand over that says "gh: command not found"', async () => {
    const record = await run('gh-missing');
    expect(record.status).to.equal('completed');
    expect(check(record, 'no_missing_gh')).to.deep.include({
      stops: 'every',
      passed: false,
      looked_at: [{ turn: 1, passed: false }],
    });
    expect(check(record, 'says_draft').passed).to.equal(false);
  });

  it('passes both checks on a clean hand over', async () => {
    const record = await run('clean');
    expect(check(record, 'no_missing_gh').passed).to.equal(true);
    expect(check(record, 'says_draft').passed).to.equal(true);
  });

  it('gives null, not false, to a hand_over check of a run that never hands over', async () => {
    const record = await run('no-hand-over');
    expect(check(record, 'says_draft')).to.deep.include({ passed: null, looked_at: [] });
    expect(check(record, 'no_missing_gh').passed).to.equal(true);
  });

  it('reports each check as a rate over the runs that had a message to read', async () => {
    const summary = await writeReport(ws.outDir);
    const bench = await readJson<BenchmarkFile>(path.join(ws.outDir, 'benchmark.json'));
    const checks = bench.conditions[0]!.message_checks!;
    expect(checks.no_missing_gh).to.deep.include({ successes: 2, n: 3 });
    expect(checks.says_draft).to.deep.include({ successes: 1, n: 2 });
    expect(formatSummaryTable(summary)).to.match(/^message check says_draft +50\.0% \(1\/2\)$/m);
    const md = await readFile(path.join(ws.outDir, 'report.md'), 'utf8');
    expect(md).to.contain('| message check no_missing_gh | 66.7% (2/3)');
    const html = await readFile(path.join(ws.outDir, 'report.html'), 'utf8');
    expect(html).to.contain('gh: command not found');
    expect(html).to.contain('data-check="says_draft" data-passed=""');
  });
});
