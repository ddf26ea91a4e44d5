/**
 * The treatment check with the REAL Claude Code binary: the same skill staged where Claude
 * Code reads skills (`.claude/skills/<name>/`) and where it does not (`.claude/skill/<name>/`).
 * `evalrig validate` warns about the second before anything runs; the gateway sees the first
 * reach the model (listed in the request) and the second never; the report says so first.
 */
import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { CLAUDE_CODE_VERIFIED_VERSION } from '../../src/agents/index.js';
import type { RunRecord } from '../../src/artifacts/index.js';
import type { BenchmarkFile } from '../../src/report/index.js';
import { readJson } from '../support/campaign.js';
import { requireDocker } from '../support/docker.js';
import { evalrigRun, makeToyWorkspace, type CliRun, type ToyWorkspace } from '../support/toy.js';

const VERSION = process.env.EVALRIG_CLAUDE_CODE_VERSION ?? CLAUDE_CODE_VERIFIED_VERSION;
const SKILL = [
  '---',
  'name: pr-flow',
  'description: Open a draft pull request before writing any code, and keep it a draft.',
  '---',
  '',
  'Plan in PLAN.md, push it, open a draft.',
  '',
].join('\n');
const SCRIPT = {
  responses: [{ content: [{ text: 'Done.' }], usage: { input_tokens: 50, output_tokens: 2 } }],
};
const WARNING =
  'wrong_path: the staged skill pr-flow (.claude/skill/pr-flow/SKILL.md), a path the agent does not load, reached the model in 0/1 runs: nothing was compared';

describe('e2e: a skill staged where Claude Code reads skills, and one where it does not', function () {
  before(requireDocker);
  this.timeout(600_000);
  let ws: ToyWorkspace;
  let validate: CliRun;
  let run: CliRun;
  const record = (condition: string) =>
    readJson<RunRecord>(path.join(ws.outDir, 'runs', 'hello', condition, 'run-01', 'run.json'));

  before(async () => {
    ws = await makeToyWorkspace({
      scripts: {},
      files: { 'skills/pr-flow/SKILL.md': SKILL, 'model/hello.json': JSON.stringify(SCRIPT) },
      set: {
        agent: { type: 'claude-code', version: VERSION, model: { script: 'model/hello.json' } },
        conditions: {
          right_path: { stage: { 'skills/pr-flow': '.claude/skills/pr-flow' } },
          wrong_path: { stage: { 'skills/pr-flow': '.claude/skill/pr-flow' } },
        },
        baseline_condition: 'right_path',
        evals: [{ id: 'hello', prompt: 'Say you are done.' }],
      },
    });
    validate = await execa(
      'node',
      ['--import', 'tsx', 'src/cli/main.ts', 'validate', ws.evalSetFile],
      { reject: false },
    );
    run = await evalrigRun(ws, undefined, ['--jobs', '2']);
  });
  after(() => ws?.cleanup());

  it('validate warns first about the path Claude Code does not load, at its JSON pointer, and still exits 0', () => {
    expect(validate.exitCode, validate.stderr).to.equal(0);
    const [first, second] = validate.stdout.split('\n');
    expect(first).to.equal(
      `${ws.evalSetFile}#/conditions/wrong_path/stage/skills~1pr-flow: warning: the skill pr-flow at .claude/skill/pr-flow/SKILL.md: Claude Code reads skills from .claude/skills/ (plural), not .claude/skill/: it will not reach the model, and wrong_path compares nothing`,
    );
    expect(second).to.match(/: valid \(1 eval, 2 conditions, 2 runs in all\)$/u);
    expect(run.stderr).to.contain('warning: ').and.contain('.claude/skill/pr-flow/SKILL.md');
  });

  it('records, run by run, whether the staged skill reached the model (and the agent listed it)', async () => {
    const right = await record('right_path');
    expect(right, run.stderr).to.include({ status: 'completed' });
    expect(right.treatment).to.deep.equal({
      staged: [
        {
          kind: 'skill',
          path: '.claude/skills/pr-flow/SKILL.md',
          name: 'pr-flow',
          loads: true,
          reached: true,
          first_call: 1,
          listed_by_agent: true,
        },
      ],
      reached: true,
    });
    expect(right.measures.condition_reached).to.equal(true);
    const wrong = await record('wrong_path');
    expect(wrong.treatment!.staged[0]).to.deep.include({
      loads: false,
      reached: false,
      first_call: null,
    });
    expect(wrong.measures.condition_reached).to.equal(false);
  });

  it('the report says first, above the verdict, that the second condition compared nothing', async () => {
    const md = await readFile(path.join(ws.outDir, 'report.md'), 'utf8');
    const lines = md.split('\n').filter((l) => l.trim() !== '');
    expect(lines[0]).to.match(/^# Report: /u);
    expect(lines[1]).to.equal(`> ⚠ **${WARNING}.**`);
    const html = await readFile(path.join(ws.outDir, 'report.html'), 'utf8');
    expect(html.indexOf('id="treatment"'))
      .to.be.greaterThan(0)
      .and.below(html.indexOf('id="verdict"'));
    expect(html).to.contain(WARNING);
    const bench = await readJson<BenchmarkFile>(path.join(ws.outDir, 'benchmark.json'));
    expect(bench.treatment_warnings).to.have.length(1);
    expect(bench.treatment_warnings![0]).to.deep.include({
      condition: 'wrong_path',
      reached: 0,
      runs: 1,
    });
    const byName = new Map(
      bench.conditions.map((c) => [c.condition, c.measures.condition_reached]),
    );
    expect(byName.get('right_path')).to.deep.include({ rate: 1, n: 1 });
    expect(byName.get('wrong_path')).to.deep.include({ rate: 0, n: 1 });
  });
});
