import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { toolResultForms } from '../../../src/agents/index.js';
import { passesStepCheck, runBehaviour } from '../../../src/behaviour/index.js';
import type { Trajectory } from '../../../src/trajectory/index.js';

const recorded = (file: string): Trajectory =>
  JSON.parse(
    readFileSync(new URL(`../../fixtures/trajectories/${file}`, import.meta.url), 'utf8'),
  ) as Trajectory;

const CODEX = toolResultForms('@openai/codex');
const CLAUDE = toolResultForms('@anthropic-ai/claude-code');

const testedBeforeCommit = {
  name: 'tested',
  description: '',
  ran: '^node test\\.js',
  succeeded: true,
  before_last: '^git commit',
};

/** The recorded trajectory with one tool result replaced. */
function withResult(t: Trajectory, input: RegExp, output: string): Trajectory {
  return {
    ...t,
    steps: t.steps.map((s) =>
      s.kind === 'tool' && input.test(s.input) ? { ...s, output, is_error: null } : s,
    ),
  };
}

describe('behaviour/run', () => {
  const failing = recorded('codex-0.171.0/tests-fail.json');

  it("reads a failed command from Codex's exit code: the tests ran, they did not succeed", () => {
    const b = runBehaviour(failing, CODEX);
    expect(b.commands.map((c) => [c.text, c.ok])).to.deep.equal([
      ["echo 'exports.multiply = (a, b) => a + b;' >> math.js", true],
      ['node test.js', false],
      ['git add -A', true],
      ['git commit -qm multiply', true],
    ]);
    expect(b.ran_tests).to.equal(true);
    expect(passesStepCheck(testedBeforeCommit, b)).to.equal(false);
    expect(passesStepCheck({ ...testedBeforeCommit, succeeded: undefined }, b)).to.equal(true);
  });

  it('reads the same run as succeeded where the result says exit 0', () => {
    const passed = withResult(
      failing,
      /node test\.js/u,
      'Chunk ID: 1\nWall time: 0.1 seconds\nProcess exited with code 0\nOriginal token count: 1\nOutput:\nok\n',
    );
    expect(passesStepCheck(testedBeforeCommit, runBehaviour(passed, CODEX))).to.equal(true);
  });

  it('counts a call its agent refused as no command run (Codex)', () => {
    const refused = withResult(failing, /node test\.js/u, 'exec command rejected by user');
    const b = runBehaviour(refused, CODEX);
    expect(b.commands.map((c) => c.text)).to.not.include('node test.js');
    expect(b.ran_tests).to.equal(false);
    expect(b.tests_before_last_commit).to.equal(false);
    expect(b.shell_commands).to.equal(3);
    expect(b.by_program).to.not.have.property('node');
    // The model still asked for it: it is a tool call.
    expect(b.tool_calls).to.equal(3);
    expect(passesStepCheck({ ...testedBeforeCommit, succeeded: undefined }, b)).to.equal(false);
  });

  it('counts a Claude Code permission denial as no command run, nor a file read', () => {
    const denied = 'Permission to use Bash with command node test.js has been denied.';
    const b0 = recorded('codex-0.171.0/tests-fail.json');
    // The same steps as Claude Code's Bash and Read tools would have them.
    const claude: Trajectory = {
      ...b0,
      steps: [
        ...b0.steps.map((s) =>
          s.kind === 'tool'
            ? {
                ...s,
                name: 'Bash',
                input: JSON.stringify({ command: JSON.parse(s.input).cmd }),
                output: /node test/u.test(s.input) ? denied : '',
                is_error: /node test/u.test(s.input),
              }
            : s,
        ),
        {
          ...b0.steps.find((s) => s.kind === 'tool')!,
          name: 'Read',
          input: JSON.stringify({ file_path: '/work/toy/SKILL.md' }),
          output: "The user doesn't want to proceed with this tool use. The tool use was rejected.",
          is_error: true,
        } as Trajectory['steps'][number],
      ],
    };
    const read = { name: 'r', description: '', read: 'SKILL\\.md$' };
    const b = runBehaviour(claude, CLAUDE);
    expect(b.ran_tests).to.equal(false);
    expect(b.files_read).to.equal(0);
    expect(passesStepCheck(read, b)).to.equal(false);
    // Without the agent's forms the denial is only a failed call: it ran (the gap this closes).
    const plain = runBehaviour(claude);
    expect(plain.ran_tests).to.equal(true);
    expect(passesStepCheck(read, plain)).to.equal(true);
  });

  it('never counts a call with no result witnessed as succeeded', () => {
    const cut = withResult(failing, /node test\.js/u, 'x');
    const unanswered: Trajectory = {
      ...cut,
      steps: cut.steps.map((s) =>
        s.kind === 'tool' && /node test/u.test(s.input) ? { ...s, output: null } : s,
      ),
    };
    const b = runBehaviour(unanswered, CODEX);
    expect(b.commands.find((c) => c.text === 'node test.js')!.ok).to.equal(false);
  });
});
