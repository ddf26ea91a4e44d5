/**
 * What the agent did, compared between conditions, on the REAL Claude Code played offline: two
 * conditions whose model scripts differ by construction (one runs the tests before it commits,
 * one never does), four runs each. The report's behaviour figures are checked against what the
 * scripts make the binary do, computed here independently (Wilson, Newcombe, Fisher by hand).
 */
import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { CLAUDE_CODE_VERIFIED_VERSION } from '../../src/agents/index.js';
import type { BenchmarkFile } from '../../src/report/index.js';
import { readJson } from '../support/campaign.js';
import { requireDocker } from '../support/docker.js';
import { evalrigRun, makeToyWorkspace, type CliRun, type ToyWorkspace } from '../support/toy.js';

const CLAUDE = process.env.EVALRIG_CLAUDE_CODE_VERSION ?? CLAUDE_CODE_VERIFIED_VERSION;
const RUNS = 4;

/** One turn: a shell call with the given commands, then a last word. */
function script(commands: readonly string[]): string {
  const body = {
    responses: [
      {
        content: [
          { text: 'I will add multiply.' },
          { tool_use: { name: 'Bash', input: { command: commands.join(' && ') } } },
        ],
        usage: { input_tokens: 3000, output_tokens: 60 },
      },
      {
        content: [{ text: 'multiply is added.' }],
        usage: { input_tokens: 3200, output_tokens: 8 },
      },
    ],
  };
  return `${JSON.stringify(body, null, 2)}\n`;
}

const EDIT = "echo 'exports.multiply = (a, b) => a * b;' >> math.js";

/** Wilson's 95% interval, written out here rather than taken from the report module. */
function wilson(k: number, n: number): [number, number] {
  const z = 1.959963984540054;
  const p = k / n;
  const centre = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
  const half = (z / (1 + (z * z) / n)) * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

describe('e2e: behaviour per condition, from the witness of real Claude Code sessions', function () {
  this.timeout(600_000);
  let ws: ToyWorkspace;
  let run: CliRun;
  let bench: BenchmarkFile;

  before(requireDocker);
  before(async () => {
    ws = await makeToyWorkspace({
      scripts: {},
      files: {
        'model/tests-first.json': script([
          EDIT,
          'node test.js',
          'git add -A',
          'git commit -qm multiply',
        ]),
        'model/no-tests.json': script([EDIT, 'git add -A', 'git commit -qm multiply']),
      },
      set: {
        agent: { type: 'claude-code', version: CLAUDE, model: { script: 'model/no-tests.json' } },
        conditions: {
          no_tests: {},
          tests_first: {
            agent: {
              type: 'claude-code',
              version: CLAUDE,
              model: { script: 'model/tests-first.json' },
            },
          },
        },
        runs: RUNS,
        step_checks: [
          {
            name: 'tests_before_commit',
            ran: '^node test\\.js',
            succeeded: true,
            before_last: '^git commit',
          },
          { name: 'no_force_push', never: '^git push .*(-f|--force)' },
          { name: 'read_math', read: 'math\\.js$' },
        ],
        evals: [{ id: 'multiply', prompt: 'Add multiply to math.js and commit it.' }],
      },
    });
    run = await evalrigRun(ws, undefined, ['--jobs', '2']);
    bench = await readJson<BenchmarkFile>(path.join(ws.outDir, 'benchmark.json'));
  });
  after(() => ws?.cleanup());

  it('counts each run: the tests run before the last commit in every tests_first run, in no no_tests run', () => {
    expect(run.exitCode, run.stderr).to.equal(0);
    const s = bench.behaviour!;
    const by = new Map(s.conditions.map((c) => [c.condition, c]));
    expect(by.get('tests_first')!.runs).to.equal(RUNS);
    expect(by.get('no_tests')!.runs).to.equal(RUNS);
    const tf = by.get('tests_first')!;
    const nt = by.get('no_tests')!;
    expect(tf.rates.ran_tests).to.deep.include({ successes: RUNS, n: RUNS });
    expect(nt.rates.ran_tests).to.deep.include({ successes: 0, n: RUNS });
    expect(tf.rates.tests_before_last_commit).to.deep.include({ successes: RUNS, n: RUNS });
    // Wilson's intervals, computed here.
    const [lo, hi] = wilson(RUNS, RUNS);
    expect(tf.rates.ran_tests!.ci95![0]).to.be.closeTo(lo, 1e-9);
    expect(tf.rates.ran_tests!.ci95![1]).to.be.closeTo(hi, 1e-9);
    // Shell commands a run, as the scripts make them: echo, node, git, git; echo, git, git.
    expect(tf.counts.shell_commands).to.deep.include({ mean: 4, n: RUNS });
    expect(nt.counts.shell_commands).to.deep.include({ mean: 3, n: RUNS });
    expect(tf.counts['program.node']).to.deep.include({ mean: 1 });
    expect(nt.counts['program.node']).to.deep.include({ mean: 0 });
    expect(tf.counts['tool.Bash']).to.deep.include({ mean: 1 });
    expect(tf.counts.model_calls!.mean).to.be.at.least(2);
  });

  it('holds each step check, true in one condition and false in the other by construction', () => {
    const by = new Map(bench.behaviour!.conditions.map((c) => [c.condition, c]));
    expect(by.get('tests_first')!.rates['step.tests_before_commit']).to.deep.include({
      successes: RUNS,
      n: RUNS,
    });
    expect(by.get('no_tests')!.rates['step.tests_before_commit']).to.deep.include({
      successes: 0,
      n: RUNS,
    });
    for (const c of ['tests_first', 'no_tests']) {
      expect(by.get(c)!.rates['step.no_force_push']).to.deep.include({ successes: RUNS, n: RUNS });
      // Nothing read math.js: the scripts only append to it.
      expect(by.get(c)!.rates['step.read_math']).to.deep.include({ successes: 0, n: RUNS });
    }
    // The author's own question is said first.
    expect(bench.behaviour!.sentences[0]).to.match(
      /^tests_first passes step check tests_before_commit in 100% vs 0% of runs, \+100 pts/u,
    );
  });

  it('tests the difference as the verdicts are, and says it first, in every report', async () => {
    const d = bench.behaviour!.differences.find(
      (x) => x.condition === 'tests_first' && x.measure === 'ran_tests',
    )!;
    expect(d.difference).to.equal(1);
    // Fisher's exact p of 4/4 against 0/4, two-sided: the two extreme tables of 70, 2/70.
    expect(d.p_value).to.be.closeTo(2 / 70, 1e-12);
    // Newcombe's hybrid score interval from the two Wilson intervals.
    const [l1] = wilson(RUNS, RUNS);
    const [, u2] = wilson(0, RUNS);
    expect(d.ci95![0]).to.be.closeTo(1 - Math.sqrt((1 - l1) ** 2 + u2 ** 2), 1e-9);
    expect(d.ci95![1]).to.be.closeTo(1, 1e-9);
    expect(d.significant).to.equal(true);
    const sentence = bench.behaviour!.sentences.find((t) =>
      t.startsWith('tests_first runs the tests in'),
    );
    expect(sentence).to.match(
      /^tests_first runs the tests in 100% vs 0% of runs, \+100 pts \[\+31, \+100\], p 0\.029$/u,
    );
    const md = await readFile(path.join(ws.outDir, 'report.md'), 'utf8');
    expect(md).to.include('## What the agent did');
    expect(md).to.include(`- **${sentence}**`);
    const html = await readFile(path.join(ws.outDir, 'report.html'), 'utf8');
    expect(html).to.include('<section id="behaviour">');
    expect(html).to.include('data-key="tests_first/no_tests/ran_tests"');
  });
});
