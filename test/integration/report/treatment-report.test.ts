/**
 * The report's first lines on a campaign whose conditions stage a skill and a CLAUDE.md:
 * loaded is not used (each condition's counts, and the runs that used the skill beside the
 * others), and a run whose treatment cannot be decided is said apart from a miss.
 */
import { expect } from 'chai';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { assertArtifact, type RunRecord } from '../../../src/artifacts/index.js';
import { writeReport, type BenchmarkFile } from '../../../src/report/index.js';
import { GOOD_RUN, writeCampaign, type CampaignSpec, type RunPlan } from './fixture.js';

type Treatment = NonNullable<RunRecord['treatment']>;

const SKILL = { kind: 'skill', path: '.claude/skills/pr-flow/SKILL.md', name: 'pr-flow' } as const;
const CLAUDE_MD = { kind: 'instructions', path: 'CLAUDE.md', name: null } as const;

/** with_skill: the skill reached every run; runs 1-3 used it (checks pass), 4 and 5 did not (4 fails). */
function skillRun(i: number): RunPlan {
  const used = i <= 3;
  const treatment: Treatment = {
    staged: [
      {
        ...SKILL,
        loads: true,
        reached: true,
        first_call: 1,
        used,
        first_use_call: used ? 2 : null,
      },
    ],
    reached: true,
    used,
  };
  return { ...GOOD_RUN, checksPass: i !== 4, treatment };
}

/** with_claude_md: CLAUDE.md reached runs 1-4; run 5's requests could not be searched. */
function claudeMdRun(i: number): RunPlan {
  const undecided = '1 request(s) could not be searched (call 3: its body was cut)';
  const staged =
    i === 5
      ? { ...CLAUDE_MD, loads: true, reached: null, first_call: null, undecided }
      : { ...CLAUDE_MD, loads: true, reached: true, first_call: 1 };
  return {
    ...GOOD_RUN,
    treatment: { staged: [staged], reached: i === 5 ? null : true, used: null },
  };
}

const SPEC: CampaignSpec = {
  evals: ['pr'],
  conditions: ['plain', 'with_skill', 'with_claude_md'],
  baseline: 'plain',
  runs: 5,
  plan: (_e, condition, i) =>
    condition === 'with_skill'
      ? skillRun(i)
      : condition === 'with_claude_md'
        ? claudeMdRun(i)
        : GOOD_RUN,
};

describe('report: what each condition staged, loaded and used', function () {
  this.timeout(60_000);
  let dir: string;
  let bench: BenchmarkFile;
  let md: string;
  let html: string;
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'evalrig-treatment-report-'));
    await writeCampaign(dir, SPEC);
    await writeReport(dir, { now: new Date('2025-03-02T00:00:00Z') });
    bench = JSON.parse(await readFile(path.join(dir, 'benchmark.json'), 'utf8')) as BenchmarkFile;
    md = await readFile(path.join(dir, 'report.md'), 'utf8');
    html = await readFile(path.join(dir, 'report.html'), 'utf8');
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('benchmark.json counts, per condition that stages something, loaded, undecided and used', () => {
    assertArtifact('benchmark', bench, 'benchmark.json');
    const [skill, claudeMd, ...rest] = bench.treatment!;
    expect(rest).to.deep.equal([]);
    expect(skill).to.deep.include({
      condition: 'with_skill',
      runs: 5,
      loaded: 5,
      undecided: 0,
      used: 3,
      use_known: 5,
    });
    expect(skill!.staged).to.deep.equal([
      { ...SKILL, loads: true, runs: 5, loaded: 5, undecided: 0, used: 3, use_known: 5 },
    ]);
    expect(skill!.text).to.equal(
      'with_skill: the staged skill pr-flow loaded in 5/5 runs, used in 3/5',
    );
    expect(claudeMd).to.deep.include({
      condition: 'with_claude_md',
      runs: 5,
      loaded: 4,
      undecided: 1,
      used: null,
    });
    expect(claudeMd!.text).to.equal(
      'with_claude_md: the staged CLAUDE.md loaded in 4/5 runs (undecided in 1)',
    );
    expect(claudeMd!.by_use).to.equal(undefined);
  });

  it('sets the runs that used the skill beside those that did not, marked observational', () => {
    const split = bench.treatment![0]!.by_use!;
    expect(split.skills).to.deep.equal(['pr-flow']);
    expect(split.used.runs).to.equal(3);
    expect(split.not_used.runs).to.equal(2);
    expect(split.used.measures.checks_passed).to.deep.include({ successes: 3, n: 3 });
    expect(split.not_used.measures.checks_passed).to.deep.include({ successes: 1, n: 2 });
    expect(split.used.measures).to.not.have.property('condition_reached');
    expect(split.text).to.match(
      /^with_skill, runs that used pr-flow vs runs that did not: checks passed 3\/3 vs 1\/2; PR draft at hand over 3\/3 vs 2\/2; .*; message check no_missing_gh 3\/3 vs 2\/2 \(observational: not randomized\)$/u,
    );
  });

  it('warns of the undecided run apart from a miss, with why', () => {
    expect(bench.treatment_warnings!.map((w) => w.text)).to.deep.equal([
      'with_claude_md: the staged CLAUDE.md could not be decided in 1/5 runs (1 request(s) could not be searched (call 3: its body was cut))',
    ]);
  });

  it('report.md says the warning, then each condition, then the split, before the verdict', () => {
    const lines = md.split('\n');
    const at = (prefix: string) => lines.findIndex((l) => l.startsWith(prefix));
    const warning = at(
      '> ⚠ **with_claude_md: the staged CLAUDE.md could not be decided in 1/5 runs',
    );
    const skill = lines.indexOf(
      '- with_skill: the staged skill pr-flow loaded in 5/5 runs, used in 3/5',
    );
    const split = at(
      '- with_skill, runs that used pr-flow vs runs that did not: checks passed 3/3 vs 1/2',
    );
    const claudeMd = lines.indexOf(
      '- with_claude_md: the staged CLAUDE.md loaded in 4/5 runs (undecided in 1)',
    );
    expect(
      [warning, skill, split, claudeMd].every((i) => i > 0),
      JSON.stringify([warning, skill, split, claudeMd]),
    ).to.equal(true);
    expect(warning).to.be.below(skill);
    expect(skill).to.be.below(split);
    expect(split).to.be.below(claudeMd);
    expect(claudeMd).to.be.below(lines.indexOf('## Verdict'));
  });

  it('report.html says them in its treatment section, escaped, before the verdict', () => {
    const section = /<section id="treatment">(.*?)<\/section>/su.exec(html)![1]!;
    expect(section).to.contain(
      '<li class="treatment-line" data-condition="with_skill">with_skill: the staged skill pr-flow loaded in 5/5 runs, used in 3/5</li>',
    );
    expect(section).to.match(
      /<li class="by-use" data-condition="with_skill">with_skill, runs that used pr-flow vs runs that did not: checks passed 3\/3 vs 1\/2;[^<]*\(observational: not randomized\)<\/li>/u,
    );
    expect(section).to.contain('class="note treatment-warning" data-condition="with_claude_md"');
    expect(html.indexOf('id="treatment"')).to.be.below(html.indexOf('id="verdict"'));
  });
});
