/**
 * The demo of the README: the example eval set, whose two conditions truly
 * differ (one stages the pull-request skill the scripted agent follows).
 */
import { expect } from 'chai';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { assertArtifact, type GradingFile } from '../../src/artifacts/index.js';
import { requireDocker } from '../support/docker.js';

const EVAL_SET = 'examples/pr-workflow/evals.json';

describe('e2e: the demo (examples/pr-workflow)', function () {
  before(requireDocker);
  this.timeout(600_000);
  let out: string;
  before(async () => {
    out = await mkdtemp(path.join(tmpdir(), 'evalrig-demo-'));
  });
  after(() => rm(out, { recursive: true, force: true }));

  it('is a valid eval set', async () => {
    const r = await execa('node', ['--import', 'tsx', 'src/cli/main.ts', 'validate', EVAL_SET]);
    expect(r.stdout).to.equal(`${EVAL_SET}: valid (1 eval, 2 conditions, 10 runs in all)`);
  });

  it('runs end to end and the skill moves the pull-request measures', async () => {
    const r = await execa(
      'node',
      [
        '--import',
        'tsx',
        'src/cli/main.ts',
        'run',
        EVAL_SET,
        '--out',
        out,
        '--runs',
        '2',
        '--jobs',
        '2',
      ],
      { reject: false },
    );
    expect(r.exitCode, r.stderr).to.equal(0);
    expect(r.stdout).to.include(`report: ${path.join(out, 'report.html')}`);
    const benchmark = JSON.parse(await readFile(path.join(out, 'benchmark.json'), 'utf8')) as {
      conditions: {
        condition: string;
        measures: Record<string, { rate?: number; mean?: number }>;
        message_checks: Record<string, { rate: number | null; n: number }>;
      }[];
      verdicts: { measure: string; text: string }[];
    };
    const by = Object.fromEntries(benchmark.conditions.map((c) => [c.condition, c.measures]));
    expect(by.with_skill!.pr_draft_at_hand_over!.rate).to.equal(1);
    expect(by.with_skill!.pr_refreshed!.rate).to.equal(1);
    expect(by.with_skill!.gh_not_played!.mean).to.equal(0);
    expect(by.without_skill!.pr_draft_at_hand_over!.rate).to.equal(0);
    expect(by.without_skill!.pr_described!.rate).to.equal(0);
    expect(by.without_skill!.gh_not_played!.mean).to.equal(1);
    // What the agent says at hand over is measured too: the skill's session says "draft".
    const checks = Object.fromEntries(
      benchmark.conditions.map((c) => [c.condition, c.message_checks]),
    );
    expect(checks.with_skill!.says_draft).to.include({ rate: 1, n: 2 });
    expect(checks.without_skill!.says_draft).to.include({ rate: 0, n: 2 });
    expect(checks.with_skill!.no_missing_gh).to.include({ rate: 1, n: 2 });
    const verdict = benchmark.verdicts.find((v) => v.measure === 'pr_draft_at_hand_over')!;
    expect(verdict.text).to.match(
      /^with_skill opens a draft PR at hand over in 100% vs 0% of runs, \+100 pts \[\d+, 100\], p 0\.33 \(could be chance\)/,
    );
    const md = await readFile(path.join(out, 'report.md'), 'utf8');
    expect(md.split('\n')[2]).to.equal('## Verdict');
    const conditions = JSON.parse(await readFile(path.join(out, 'conditions.json'), 'utf8')) as {
      conditions: { name: string; stage: { to: string; sha256: string }[] }[];
    };
    const staged = conditions.conditions.find((c) => c.name === 'with_skill')!.stage;
    expect(staged.map((s) => s.to)).to.deep.equal(['.claude/skills/pr-workflow']);
    expect(staged[0]!.sha256, 'a staged folder is hashed by its contents').to.match(
      /^[0-9a-f]{64}$/,
    );
  });

  it('grades every run with the judge the model stand-in plays, and compares the conditions blind', async () => {
    for (const condition of ['with_skill', 'without_skill']) {
      for (const run of ['run-01', 'run-02']) {
        const file = path.join(out, 'runs', 'add-multiply', condition, run, 'grading.json');
        const grading = JSON.parse(await readFile(file, 'utf8')) as GradingFile;
        assertArtifact('grading', grading, file);
        expect(grading.status, file).to.equal('graded');
        expect(grading.all_passed, file).to.equal(condition === 'with_skill');
      }
    }
    const benchmark = JSON.parse(await readFile(path.join(out, 'benchmark.json'), 'utf8')) as {
      grading: {
        conditions: { condition: string; all_passed: { rate: number } }[];
        blind: { judged: number; wins: { condition: string; stats: { rate: number } }[] }[];
      };
    };
    const rates = Object.fromEntries(
      benchmark.grading.conditions.map((c) => [c.condition, c.all_passed.rate]),
    );
    expect(rates).to.deep.equal({ without_skill: 0, with_skill: 1 });
    expect(benchmark.grading.blind.map((b) => b.judged)).to.deep.equal([2]);
    const wins = Object.fromEntries(
      benchmark.grading.blind[0]!.wins.map((w) => [w.condition, w.stats.rate]),
    );
    expect(wins).to.deep.equal({ without_skill: 0, with_skill: 1 });
  });
});
