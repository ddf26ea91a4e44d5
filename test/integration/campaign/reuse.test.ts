/**
 * Reuse by fingerprint in real containers: a first campaign of two conditions, then a second
 * into a new folder with `--reuse` the first, one condition's staged skill changed. Only that
 * condition plays; the other's runs are copied, run for run, with their measures unchanged.
 */
import { expect } from 'chai';
import { readFile, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { GradingFile, RunRecord } from '../../../src/artifacts/index.js';
import { runCampaign, type CampaignResult } from '../../../src/campaign/index.js';
import { compareCampaigns } from '../../../src/compare/index.js';
import { writeReport, type BenchmarkFile } from '../../../src/report/index.js';
import { readJson } from '../../support/campaign.js';
import { requireDocker, testDocker } from '../../support/docker.js';
import {
  executionTurn,
  makeToyWorkspace,
  planningTurn,
  type ToyWorkspace,
} from '../../support/toy.js';

const EXPECTATIONS = ['math.js exports multiply.'];

/** The judge's script: every grading passes, its `evidence` naming the script's version. */
function judgeScript(version: string): string {
  const answer = {
    expectations: [{ expectation: EXPECTATIONS[0], passed: true, evidence: version }],
  };
  return JSON.stringify({
    responses: [
      {
        when: { contains: ['<run-record>'] },
        content: [{ text: JSON.stringify(answer) }],
        usage: { input_tokens: 100, output_tokens: 10 },
      },
    ],
  });
}

const runDir = (out: string, condition: string, n: number): string =>
  path.join(out, 'runs', 'add', condition, `run-0${n}`);

const record = (out: string, condition: string, n: number): Promise<RunRecord> =>
  readJson<RunRecord>(path.join(runDir(out, condition, n), 'run.json'));

describe('campaign: --reuse copies the runs whose every input is unchanged', function () {
  before(requireDocker);
  this.timeout(600_000);
  let ws: ToyWorkspace;
  let first: CampaignResult;
  let second: CampaignResult;
  let said = '';
  const out2 = () => path.join(ws.root, 'out2');
  const skill = () => path.join(path.dirname(ws.evalSetFile), 'skills', 'SKILL.md');

  /** A campaign of the workspace's eval set into `outDir`, its lines kept in `said`. */
  const play = (outDir: string, extra: Record<string, unknown> = {}) => {
    said = '';
    const log = { write: (s: string) => ((said += s), true) } as unknown as NodeJS.WriteStream;
    return runCampaign({
      evalSetFile: ws.evalSetFile,
      outDir,
      client: testDocker(),
      log,
      jobs: 2,
      ...extra,
    });
  };

  before(async () => {
    ws = await makeToyWorkspace({
      scripts: { add: { turns: [planningTurn(), executionTurn()] } },
      files: {
        'skills/SKILL.md': '# tdd\n\nWrite the test first.\n',
        'judge.json': judgeScript('v1'),
      },
      set: {
        conditions: {
          without_skill: {},
          with_skill: { stage: { 'skills/SKILL.md': '.claude/skills/tdd/SKILL.md' } },
        },
        baseline_condition: 'without_skill',
        judge: { model: { script: 'judge.json' } },
        evals: [
          {
            id: 'add',
            prompt: 'Plan, then add multiply.',
            runs: 2,
            turns: [{ message: 'Approved, go on.', phase: 'execution' }],
            checks: [{ name: 'tests', run: 'node test.js' }],
            expectations: EXPECTATIONS,
          },
        ],
      },
    });
    first = await play(ws.outDir);
    expect(first.played).to.equal(4);
    await writeFile(skill(), '# tdd\n\nWrite the test first, then watch it fail.\n');
    second = await play(out2(), { reuse: [ws.outDir] });
  });
  after(() => ws.cleanup());

  it('says per condition what changed before playing, and plays only the changed condition', () => {
    expect(said).to.include(
      'evalrig: reuse: without_skill: unchanged: 2 reused; with_skill: .claude/skills/tdd/SKILL.md changed: 2 to play\n',
    );
    expect(second).to.deep.include({ played: 2, reused: 2, skipped: 0, failed: 0 });
  });

  it('copies each unchanged run as it was, naming where it came from', async () => {
    for (const n of [1, 2]) {
      const [was, is] = [
        await record(ws.outDir, 'without_skill', n),
        await record(out2(), 'without_skill', n),
      ];
      expect(is.reused_from).to.deep.equal({
        campaign: first.campaign,
        folder: ws.outDir,
        run: `add/without_skill/run-0${n}`,
        fingerprint: was.fingerprint!.sha256,
      });
      expect(is.campaign).to.equal(second.campaign);
      expect(is.measures).to.deep.equal(was.measures);
      expect(is.fingerprint).to.deep.equal(was.fingerprint);
      for (const file of ['diff.patch', 'calls.jsonl', 'stops/stop-01.json', 'stops/stop-02.json'])
        expect(
          await readFile(path.join(runDir(out2(), 'without_skill', n), file), 'utf8'),
        ).to.equal(await readFile(path.join(runDir(ws.outDir, 'without_skill', n), file), 'utf8'));
    }
  });

  it('records in every played run the fingerprint that names what changed', async () => {
    const [was, is] = [
      await record(ws.outDir, 'with_skill', 1),
      await record(out2(), 'with_skill', 1),
    ];
    expect(is.reused_from).to.equal(undefined);
    const changed = Object.keys(is.fingerprint!.inputs).filter(
      (k) => is.fingerprint!.inputs[k] !== was.fingerprint!.inputs[k],
    );
    expect(changed).to.deep.equal(['stage:.claude/skills/tdd/SKILL.md']);
    expect(is.fingerprint!.inputs).to.have.property('folder:scripts/add.json');
    expect(is.fingerprint!.inputs).to.not.have.property('folder:judge.json');
  });

  it('keeps the gradings of the same judge: no call for a reused run', async () => {
    expect(second.grading).to.deep.include({ graded: 2, cached: 2, errors: 0 });
    const g = await readJson<GradingFile>(
      path.join(runDir(out2(), 'without_skill', 1), 'grading.json'),
    );
    expect(g.campaign).to.equal(first.campaign);
  });

  it('names the reused runs and their source in the report and BASELINE.md', async () => {
    await writeReport(out2());
    const baseline = await readFile(path.join(out2(), 'BASELINE.md'), 'utf8');
    expect(baseline).to.include(
      `| reused runs (campaign ${first.campaign}) | 2 runs of without_skill from ${ws.outDir}: add/without_skill/run-01, add/without_skill/run-02 |`,
    );
    const benchmark = await readJson<BenchmarkFile>(path.join(out2(), 'benchmark.json'));
    expect(benchmark.provenance.reused).to.deep.equal([
      {
        campaign: first.campaign,
        folder: ws.outDir,
        conditions: { without_skill: 2 },
        runs: ['add/without_skill/run-01', 'add/without_skill/run-02'],
      },
    ]);
    // What the reused runs cost, and when they played, is the first campaign's.
    expect(benchmark.account?.reused_runs).to.equal(2);
    expect(benchmark.account?.agent.map((a) => [a.condition, a.runs])).to.deep.equal([
      ['with_skill', 2],
    ]);
    const report = await readFile(path.join(out2(), 'report.md'), 'utf8');
    expect(report).to.include(
      `2 of 4 runs were reused from campaign ${first.campaign} (${ws.outDir}), their every input unchanged: without_skill 2.`,
    );
  });

  it('follows no link planted in the folder it reuses, and grades again under a changed judge', async () => {
    const secret = path.join(ws.root, 'secret.txt');
    await writeFile(secret, 'the host secret\n');
    const planted = path.join(runDir(ws.outDir, 'without_skill', 1), 'diff.patch');
    await rm(planted);
    await symlink(secret, planted);
    await writeFile(path.join(path.dirname(ws.evalSetFile), 'judge.json'), judgeScript('v2'));
    const out3 = path.join(ws.root, 'out3');
    const third = await play(out3, { reuse: [ws.outDir], conditions: ['without_skill'] });
    expect(said).to.include(
      `evalrig: warning: --reuse ${ws.outDir}: add/without_skill/run-01: ${planted} is not a regular file (a link is not followed); it is played\n`,
    );
    expect(said).to.include(
      `evalrig: reuse: without_skill: unchanged: 1 reused, unreadable in ${ws.outDir}: 1 to play\n`,
    );
    expect(said).to.include(
      "evalrig: reuse: the judge's script changed: 1 reused run(s) are graded again\n",
    );
    expect(third).to.deep.include({ played: 1, reused: 1 });
    expect(
      await readFile(path.join(runDir(out3, 'without_skill', 1), 'diff.patch'), 'utf8'),
    ).to.not.include('secret');
    const g = await readJson<GradingFile>(
      path.join(runDir(out3, 'without_skill', 2), 'grading.json'),
    );
    expect(g.campaign).to.equal(third.campaign);
    expect(g.expectations[0]!.evidence).to.equal('v2');
  });

  it("sees a change to the scripted agent's script, and compare names it beside the skill", async () => {
    await writeReport(ws.outDir);
    await writeReport(out2());
    const one = await compareCampaigns(ws.outDir, out2());
    expect(one.provenance.differences.map((d) => d.what)).to.deep.equal([
      'the files condition with_skill stages',
    ]);
    const script = path.join(path.dirname(ws.evalSetFile), 'scripts', 'add.json');
    const turns = JSON.parse(await readFile(script, 'utf8')) as { turns: { actions: unknown[] }[] };
    turns.turns[1]!.actions.unshift({ say: 'Done, in a new way.' });
    await writeFile(script, JSON.stringify(turns));
    await writeFile(skill(), '# tdd\n\nWrite the test first.\n');
    const out4 = path.join(ws.root, 'out4');
    const fourth = await play(out4, { reuse: [out2()] });
    expect(said).to.include(
      'evalrig: reuse: without_skill: scripts/add.json in the eval set folder changed: 2 to play; with_skill: .claude/skills/tdd/SKILL.md and scripts/add.json in the eval set folder changed: 2 to play\n',
    );
    expect(fourth).to.deep.include({ played: 4, reused: 0 });
    await writeReport(out4);
    const two = await compareCampaigns(out2(), out4);
    expect(two.provenance.differences.map((d) => d.what)).to.deep.equal([
      'the files condition with_skill stages',
      "the eval set folder's scripts/add.json",
      // The judge's script changed since out2 was graded (the test before).
      'the judge (model, script or rubric)',
    ]);
    expect(two.provenance.attribution).to.equal('several');
  });
});
