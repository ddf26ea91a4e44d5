import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { execa } from 'execa';
import { assertArtifact } from '../../../src/artifacts/index.js';
import type { CompareFile } from '../../../src/compare/index.js';
import { exactCmhFraction } from '../../../src/report/cmh.js';
import { fractionValue, writeReport } from '../../../src/report/index.js';
import { mantelHaenszelDifference } from '../../../src/report/mh-difference.js';
import { GOOD_RUN, MIXED, writeCampaign } from '../../integration/report/fixture.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const tsx = import.meta.resolve('tsx');

function evalrig(args: string[]) {
  return execa('node', ['--import', tsx, path.join(root, 'src/cli/main.ts'), ...args], {
    reject: false,
  });
}

async function editJson(
  file: string,
  edit: (data: Record<string, unknown>) => void,
): Promise<void> {
  const data = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  edit(data);
  await writeFile(file, JSON.stringify(data));
}

/** A user's mistake: exit 2 and one line on stderr, no stack. */
function expectOneLineError(
  r: { exitCode?: number; stderr: string; stdout: string },
  text: string,
): void {
  expect(r.exitCode, r.stderr).to.equal(2);
  expect(r.stderr.trimEnd().split('\n'), r.stderr).to.have.length(1);
  expect(r.stderr).to.include(text);
  expect(r.stderr).not.to.match(/\n\s+at /);
  expect(r.stdout).to.equal('');
}

describe('evalrig compare <out-a> <out-b>', function () {
  this.timeout(120_000);
  let work: string;
  let a: string;
  let b: string;

  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'evalrig-compare-'));
    a = path.join(work, 'a');
    b = path.join(work, 'b');
    await writeCampaign(a, MIXED);
    await writeReport(a);
    // B: every run does it all right, and a third condition A never had.
    await writeCampaign(b, {
      ...MIXED,
      conditions: [...MIXED.conditions, 'with_skill_v2'],
      plan: () => GOOD_RUN,
    });
    await writeReport(b);
  });
  after(() => rm(work, { recursive: true, force: true }));

  it('prints the comparison as Markdown: provenance, per condition, per eval, and what only B has', async () => {
    const r = await evalrig(['compare', a, b]);
    expect(r.exitCode, r.stderr).to.equal(0);
    expect(r.stdout).to.match(/^# Compare: synthetic \(A\) → synthetic \(B\)$/m);
    expect(r.stdout).to.include('Nothing recorded differs');
    expect(r.stdout).to.include('### without_skill');
    expect(r.stdout).to.include('### add-feature / with_skill');
    // without_skill: A 5 of 9 runs with a draft at hand over, B 10 of 10.
    expect(r.stdout).to.include(
      '| PR draft at hand over | 55.6% (5/9) | 100.0% (10/10) | +44.4 pts [+6.7, +73.3] | 0.0325 |',
    );
    expect(r.stdout).to.include('- condition with_skill_v2: only in B (10 runs)');
  });

  it('writes compare.json (valid), compare.md and compare.html with --out', async () => {
    const out = path.join(work, 'cmp');
    const r = await evalrig(['compare', a, b, '--out', out]);
    expect(r.exitCode, r.stderr).to.equal(0);
    expect((await readdir(out)).sort()).to.deep.equal([
      'compare.html',
      'compare.json',
      'compare.md',
    ]);
    expect(r.stdout).to.include(`compare: ${path.join(out, 'compare.json')}`);
    const c = JSON.parse(await readFile(path.join(out, 'compare.json'), 'utf8')) as CompareFile;
    assertArtifact('compare', c, 'compare.json');
    expect(c.a.dir).to.equal(a);
    expect(c.provenance.attribution).to.equal('same');
    expect(c.one_sided.map((g) => `${g.eval}/${g.condition}/${g.only}`)).to.include(
      'null/with_skill_v2/b',
    );
    const html = await readFile(path.join(out, 'compare.html'), 'utf8');
    expect(html).to.match(/^<!doctype html>/);
    expect(html).to.include('data-measure="pr_draft_at_hand_over"');
    expect(await readFile(path.join(out, 'compare.md'), 'utf8')).to.include('## Per eval');
  });

  it('prints JSON or HTML with --format, and refuses another format', async () => {
    const json = await evalrig(['compare', a, b, '--format', 'json']);
    expect(json.exitCode, json.stderr).to.equal(0);
    assertArtifact('compare', JSON.parse(json.stdout), 'stdout');
    const html = await evalrig(['compare', a, b, '--format', 'html']);
    expect(html.stdout).to.match(/^<!doctype html>/);
    const bad = await evalrig(['compare', a, b, '--format', 'pdf']);
    expect(bad.exitCode).to.equal(2);
    expect(bad.stderr).to.include("argument 'pdf' is invalid");
  });

  it('--fail-if-worse exits 1 when B is worse than A with p < 0.05 on a named measure, 0 otherwise', async () => {
    // A better than B: the gate of "compare b a" trips on the draft rate (10 of 10 against 5 of 9),
    // tested within the two evals: 3 of 5 against 5 of 5, and 2 of 4 against 5 of 5.
    const strata = [
      { x1: 3, n1: 5, x2: 5, n2: 5 },
      { x1: 2, n1: 4, x2: 5, n2: 5 },
    ];
    const mh = mantelHaenszelDifference(strata)!;
    const pts = (v: number) => `${v < 0 ? '−' : '+'}${Math.abs(v * 100).toFixed(1)}`;
    const p = fractionValue(exactCmhFraction(strata)!).toFixed(4);
    const worse = await evalrig([
      'compare',
      b,
      a,
      '--fail-if-worse',
      'pr_draft_at_hand_over,agent.cost_usd',
      '--out',
      path.join(work, 'gate'),
    ]);
    expect(worse.exitCode, worse.stderr).to.equal(1);
    expect(worse.stderr).to.include(
      `evalrig: B is worse than A on PR draft at hand over (pr_draft_at_hand_over), condition without_skill: within 2 evals ${pts(mh.difference)} pts [${pts(mh.ci95[0])}, ${pts(mh.ci95[1])}], exact CMH p ${p} (higher is better)`,
    );
    // The comparison is still written: the gate only sets the exit status.
    expect(await readdir(path.join(work, 'gate'))).to.include('compare.json');
    const fine = await evalrig(['compare', a, b, '--fail-if-worse', 'pr_draft_at_hand_over']);
    expect(fine.exitCode, fine.stderr).to.equal(0);
    expect(fine.stdout).to.match(/^# Compare:/u);
    expect(fine.stderr).to.equal(
      'evalrig: --fail-if-worse: B is not worse than A on pr_draft_at_hand_over',
    );
  });

  it('--fail-if-worse refuses a measure it cannot gate, naming the flag, reading nothing', async () => {
    expectOneLineError(
      await evalrig(['compare', a, path.join(work, 'nope'), '--fail-if-worse', 'check_passed']),
      'evalrig: --fail-if-worse: "check_passed" is no measure evalrig knows which way is better; measures: pr_draft_at_hand_over,',
    );
    expectOneLineError(
      await evalrig(['compare', a, b, '--fail-if-worse', 'grading.all_passed']),
      '--fail-if-worse: no condition has "grading.all_passed" on both sides',
    );
  });

  it('fails on a folder that does not exist', async () => {
    expectOneLineError(
      await evalrig(['compare', a, path.join(work, 'nope')]),
      `${path.join(work, 'nope')} does not exist`,
    );
  });

  it('fails on a folder that is not a campaign', async () => {
    const empty = await mkdtemp(path.join(work, 'empty-'));
    expectOneLineError(
      await evalrig(['compare', empty, b]),
      `${path.join(empty, 'conditions.json')} is missing: ${empty} is not a campaign folder`,
    );
  });

  it('fails on a campaign that has not finished (no benchmark.json), saying what to run', async () => {
    const unfinished = path.join(work, 'unfinished');
    await writeCampaign(unfinished, MIXED);
    expectOneLineError(
      await evalrig(['compare', a, unfinished]),
      `${path.join(unfinished, 'benchmark.json')} is missing: the campaign in ${unfinished} is not finished (still running, cut, or run with --no-report); run \`evalrig report ${unfinished}\``,
    );
  });

  it('fails on a benchmark.json that does not match its schema, at its JSON pointer', async () => {
    const broken = path.join(work, 'broken');
    await writeCampaign(broken, MIXED);
    await writeReport(broken);
    await editJson(path.join(broken, 'benchmark.json'), (data) => {
      const conditions = data.conditions as Array<{ measures: Record<string, { n: unknown }> }>;
      conditions[1]!.measures.pr_described!.n = 'ten';
    });
    expectOneLineError(
      await evalrig(['compare', broken, b]),
      `${path.join(broken, 'benchmark.json')} does not match the benchmark schema at /conditions/1/measures/pr_described/n: must be integer`,
    );
  });

  it('refuses a benchmark.json of an older evalrig (no agent measures, no condition_reached), saying to recompute it; compares once recomputed', async () => {
    const older = path.join(work, 'older');
    await writeCampaign(older, MIXED);
    await writeReport(older);
    await editJson(path.join(older, 'benchmark.json'), (data) => {
      for (const g of data.conditions as Array<Record<string, unknown>>) {
        delete g.agent;
        delete (g.measures as Record<string, unknown>).condition_reached;
      }
    });
    expectOneLineError(
      await evalrig(['compare', older, b]),
      `${path.join(older, 'benchmark.json')} does not match the benchmark schema at /conditions/0: must have required property 'agent' (and 3 more problems); run \`evalrig report ${older}\` to recompute it from the runs`,
    );
    await writeReport(older);
    const r = await evalrig(['compare', older, b]);
    expect(r.exitCode, r.stderr).to.equal(0);
  });

  it('fails on a file that is not JSON, and on a benchmark.json of another eval set', async () => {
    const garbled = path.join(work, 'garbled');
    await writeCampaign(garbled, MIXED);
    await writeFile(path.join(garbled, 'conditions.json'), '{"schema": ');
    expectOneLineError(
      await evalrig(['compare', a, garbled]),
      `${path.join(garbled, 'conditions.json')} is not JSON`,
    );
    const stale = path.join(work, 'stale');
    await writeCampaign(stale, MIXED);
    await writeReport(stale);
    await editJson(path.join(stale, 'conditions.json'), (data) => {
      (data.eval_set as { sha256: string }).sha256 = 'f'.repeat(64);
    });
    expectOneLineError(
      await evalrig(['compare', stale, b]),
      `${path.join(stale, 'benchmark.json')} /provenance/eval_set/sha256 is not ${path.join(stale, 'conditions.json')} /eval_set/sha256: benchmark.json is stale`,
    );
  });
});
