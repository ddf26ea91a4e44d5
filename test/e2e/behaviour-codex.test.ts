/**
 * Step checks and each check's own rate on the REAL Codex played offline: two conditions whose
 * model scripts differ by construction. Both run `node test.js` before they commit; in
 * tests_pass the tests pass, in tests_fail the edit is wrong and they fail (exit 1), so "the
 * tests succeeded before the last commit" is true in one and false in the other, and only an
 * exit code read from Codex's tool results can tell them apart. The host's own `tests` check
 * fails in tests_fail too, and the report names it with its output's last lines.
 */
import { expect } from 'chai';
import path from 'node:path';
import { CODEX_VERIFIED_VERSION } from '../../src/agents/index.js';
import type { BenchmarkFile } from '../../src/report/index.js';
import { readJson } from '../support/campaign.js';
import { requireDocker } from '../support/docker.js';
import { evalrigRun, makeToyWorkspace, type CliRun, type ToyWorkspace } from '../support/toy.js';

const CODEX = process.env.EVALRIG_CODEX_VERSION ?? CODEX_VERIFIED_VERSION;
const RUNS = 3;

/** One call of Codex's shell tool a response, then a last word. */
function script(commands: readonly string[]): string {
  const responses = [
    ...commands.map((cmd, k) => ({
      content: [{ tool_use: { name: 'exec_command', input: { cmd } } }],
      usage: { input_tokens: 2000 + 100 * k, output_tokens: 30 },
    })),
    { content: [{ text: 'multiply is added.' }], usage: { input_tokens: 2600, output_tokens: 8 } },
  ];
  return `${JSON.stringify({ responses }, null, 2)}\n`;
}

const edit = (body: string) => `echo 'exports.multiply = (a, b) => ${body};' >> math.js`;
const COMMIT = 'git add -A && git commit -qm multiply';

describe('e2e: step checks and each check per condition, from real Codex sessions', function () {
  this.timeout(600_000);
  let ws: ToyWorkspace;
  let run: CliRun;
  let bench: BenchmarkFile;

  before(requireDocker);
  before(async () => {
    ws = await makeToyWorkspace({
      scripts: {},
      files: {
        'model/pass.json': script([edit('a * b'), 'node test.js', COMMIT]),
        'model/fail.json': script([edit('a + b'), 'node test.js', COMMIT]),
      },
      set: {
        agent: { type: 'codex', version: CODEX, model: { script: 'model/fail.json' } },
        conditions: {
          tests_fail: {},
          tests_pass: { model_script: 'model/pass.json' },
        },
        runs: RUNS,
        checks: [{ name: 'tests', run: 'node test.js' }],
        step_checks: [
          {
            name: 'tests_passed_before_commit',
            ran: '^node test\\.js',
            succeeded: true,
            before_last: '^git commit',
          },
          { name: 'tests_ran_before_commit', ran: '^node test\\.js', before_last: '^git commit' },
          { name: 'no_force_push', never: '^git push .*(-f|--force)' },
        ],
        evals: [{ id: 'multiply', prompt: 'Add multiply to math.js and commit it.' }],
      },
    });
    run = await evalrigRun(ws, undefined, ['--jobs', '2']);
    expect(run.exitCode, run.stderr).to.equal(0);
    bench = await readJson<BenchmarkFile>(path.join(ws.outDir, 'benchmark.json'));
  });
  after(() => ws?.cleanup());

  const rates = (condition: string) =>
    bench.behaviour!.conditions.find((c) => c.condition === condition)!.rates;

  it('reads the exit code from the tool results: passed before the commit in tests_pass only', () => {
    expect(run.exitCode, run.stderr).to.equal(0);
    expect(rates('tests_pass')['step.tests_passed_before_commit']).to.deep.include({
      successes: RUNS,
      n: RUNS,
    });
    expect(rates('tests_fail')['step.tests_passed_before_commit']).to.deep.include({
      successes: 0,
      n: RUNS,
    });
  });

  it('counts a failed command as run: both conditions ran the tests before the commit', () => {
    for (const c of ['tests_pass', 'tests_fail']) {
      expect(rates(c)['step.tests_ran_before_commit']).to.deep.include({
        successes: RUNS,
        n: RUNS,
      });
      expect(rates(c)['step.no_force_push']).to.deep.include({ successes: RUNS, n: RUNS });
      expect(rates(c).ran_tests).to.deep.include({ successes: RUNS, n: RUNS });
    }
  });
});
