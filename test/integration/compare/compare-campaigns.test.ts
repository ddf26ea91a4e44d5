/**
 * Two real campaigns of the demo's eval set (the scripted agent, real
 * containers), before and after a change to the pull-request skill, and a
 * third after a commit to the codebase too: compare names what changed in the
 * measures and in the provenance, and warns when it is more than one thing.
 */
import { expect } from 'chai';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { runCampaign } from '../../../src/campaign/index.js';
import type { CompareFile, RateComparison } from '../../../src/compare/index.js';
import { git } from '../../../src/git/index.js';
import { newcombeDifference, writeReport } from '../../../src/report/index.js';
import { requireDocker, testDocker } from '../../support/docker.js';
import { makeToyCodebase } from '../../support/toy.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const tsx = import.meta.resolve('tsx');
const client = testDocker();
const quiet = { write: () => true } as unknown as NodeJS.WriteStream;

function evalrig(args: string[]) {
  return execa('node', ['--import', tsx, path.join(root, 'src/cli/main.ts'), ...args], {
    reject: false,
  });
}

describe('compare: two real campaigns before and after a change to the skill', function () {
  before(requireDocker);
  this.timeout(600_000);
  let work: string;
  let skill: string;
  const out = (name: string) => path.join(work, name);

  /** The demo's campaign, 2 runs a condition, reported as `evalrig run` reports it. */
  async function campaign(name: string, runs = 2): Promise<void> {
    const result = await runCampaign({
      evalSetFile: path.join(work, 'evals', 'evals.json'),
      outDir: out(name),
      runs,
      jobs: 2,
      client,
      log: quiet,
    });
    expect(result.failed, `campaign ${name}`).to.equal(0);
    await writeReport(out(name));
  }

  async function compare(
    a: string,
    b: string,
  ): Promise<{ c: CompareFile; md: string; stdout: string }> {
    const dir = out(`${a}-vs-${b}`);
    const r = await evalrig(['compare', out(a), out(b), '--out', dir]);
    expect(r.exitCode, r.stderr).to.equal(0);
    const c = JSON.parse(await readFile(path.join(dir, 'compare.json'), 'utf8')) as CompareFile;
    return { c, md: await readFile(path.join(dir, 'compare.md'), 'utf8'), stdout: r.stdout };
  }

  const rate = (c: CompareFile, condition: string, measure: string) =>
    c.groups
      .find((g) => g.eval === null && g.condition === condition)!
      .measures.find((m) => m.measure === measure) as RateComparison;

  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'evalrig-compare-real-'));
    // The demo's eval set as it is, over a toy codebase with a history (its `../toy`).
    await cp(path.join(root, 'examples/pr-workflow'), path.join(work, 'evals'), {
      recursive: true,
    });
    await makeToyCodebase(out('toy'));
    skill = path.join(work, 'evals/skills/pr-workflow/SKILL.md');
    await campaign('before');
    // The change under test: the skill no longer says to open the pull request as a draft.
    const text = await readFile(skill, 'utf8');
    expect(text).to.include("gh pr create --draft --title 'Add multiply'");
    await writeFile(skill, text.replace('gh pr create --draft', 'gh pr create'));
    await campaign('after');
    // And a commit to the codebase on top of the changed skill.
    await writeFile(path.join(out('toy'), 'README.md'), '# toy\n');
    await git(['add', 'README.md'], { cwd: out('toy') });
    await git(['commit', '-qm', 'readme'], { cwd: out('toy') });
    await campaign('after-commit');
  });
  after(() => rm(work, { recursive: true, force: true }));

  it('shows the skill change as the one difference, and the draft rate it moved', async () => {
    const { c, md, stdout } = await compare('before', 'after');
    expect(c.provenance.attribution).to.equal('one');
    expect(c.provenance.differences).to.have.length(1);
    expect(c.provenance.differences[0]).to.deep.include({
      aspect: 'condition',
      what: 'the files condition with_skill stages',
    });
    expect(c.provenance.a.eval_set.sha256).to.equal(c.provenance.b.eval_set.sha256);
    expect(stdout).to.include('One thing differs: the files condition with_skill stages.');

    const draft = rate(c, 'with_skill', 'pr_draft_at_hand_over');
    expect(draft.a).to.deep.equal({ rate: 1, successes: 2, n: 2 });
    expect(draft.b).to.deep.equal({ rate: 0, successes: 0, n: 2 });
    expect(draft.difference).to.equal(-1);
    expect(draft.ci95).to.deep.equal(newcombeDifference(0, 2, 2, 2));
    expect(draft.p_value).to.be.closeTo(1 / 3, 1e-9);
    const [lo, hi] = draft.ci95!.map((v) => (v * 100).toFixed(1).replace('-', '−'));
    expect(md).to.include(
      `| PR draft at hand over | 100.0% (2/2) | 0.0% (0/2) | −100.0 pts [${lo}, ${hi}] | 0.3333 |`,
    );
    expect(md).to.include(
      "With A 2 and B 2 runs measured, Fisher's test (p < 0.05) cannot detect any difference of rates 80% of the time",
    );
    // The condition without the skill did not move.
    expect(rate(c, 'without_skill', 'pr_draft_at_hand_over')).to.deep.include({ difference: 0 });
    expect(c.groups.map((g) => `${g.eval ?? '*'}/${g.condition}`)).to.deep.equal([
      '*/without_skill',
      '*/with_skill',
      'add-multiply/with_skill',
      'add-multiply/without_skill',
    ]);
    expect(c.one_sided).to.deep.equal([]);
  });

  it('warns when the codebase commit changed too: the difference cannot be attributed to one', async () => {
    const { c, md } = await compare('before', 'after-commit');
    expect(c.provenance.attribution).to.equal('several');
    expect(c.provenance.differences.map((d) => d.aspect)).to.deep.equal(['condition', 'codebase']);
    expect(c.provenance.verdict).to.equal(
      'Warning: the files condition with_skill stages and the codebase commit (add-multiply) both differ: the difference cannot be attributed to one.',
    );
    expect(md).to.include(`> **${c.provenance.verdict}**`);
    // Against the campaign with the same skill, the commit alone differs.
    const alone = await compare('after', 'after-commit');
    expect(alone.c.provenance.differences.map((d) => d.what)).to.deep.equal([
      'the codebase commit (add-multiply)',
    ]);
    expect(rate(alone.c, 'with_skill', 'pr_draft_at_hand_over')).to.deep.include({ difference: 0 });
  });
});
