import { createHash } from 'node:crypto';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { InputError } from '../../../src/errors/index.js';
import {
  BUILTIN_MESSAGE_CHECKS,
  EvalSetError,
  EvalSetSyntaxError,
  loadEvalSet,
} from '../../../src/config/index.js';

const fixtures = fileURLToPath(new URL('../../fixtures/config/', import.meta.url));

describe('loadEvalSet: a valid eval set is normalized', () => {
  it('applies every default to a minimal set, with one condition named default', async () => {
    const file = path.join(fixtures, 'minimal/evals.json');
    const set = await loadEvalSet(file);
    expect(set.file).to.equal(file);
    expect(set.dir).to.equal(path.dirname(file));
    expect(set.sha256).to.equal(
      createHash('sha256')
        .update(await readFile(file))
        .digest('hex'),
    );
    expect(set.name).to.equal('minimal');
    expect(set.agent).to.deep.equal({
      command: ['agent', '--prompt', '{prompt}'],
      resume_command: ['agent', '--prompt', '{prompt}'],
      env: [],
    });
    expect(set.conditions).to.deep.equal([{ name: 'default', stage: [], env: {}, agent_args: [] }]);
    expect(set.baseline_condition).to.equal('default');
    expect(set.probes).to.deep.equal({});
    expect(set.hand_over).to.deep.equal([]);
    expect(set.resources).to.deep.equal({
      memory_bytes: 2 * 1024 ** 3,
      cpus: 2,
      pids: 512,
      disk_bytes: 2 * 1024 ** 3,
    });
    expect(set.repo_owner).to.equal('evalrig');
    expect(set.evals).to.deep.equal([
      {
        id: 'say-hello',
        prompt: 'Print hello.',
        expectations: [],
        files: [],
        runs: 1,
        phase: 'planning',
        turns: [],
        timeout: 1800,
        turn_timeout: 600,
        checks: [],
        check_files: [],
        message_checks: [...BUILTIN_MESSAGE_CHECKS],
      },
    ]);
    expect(set.evals[0]).to.not.have.property('codebase');
  });

  it('resolves paths, inherits set-level values and chains turn phases in a full set', async () => {
    const file = path.join(fixtures, 'full/evals.json');
    const dir = path.dirname(file);
    const set = await loadEvalSet(file);
    expect(set.agent.resume_command).to.deep.equal(['agent', 'resume', '{prompt}']);
    expect(set.agent.env).to.deep.equal(['ANTHROPIC_API_KEY']);
    expect(set.conditions.map((c) => c.name)).to.deep.equal(['without_skill', 'with_skill']);
    expect(set.baseline_condition).to.equal('without_skill');
    expect(set.conditions[1]).to.deep.equal({
      name: 'with_skill',
      description: 'The TDD skill staged.',
      stage: [
        { from: path.join(dir, 'skills/tdd'), to: '.claude/skills/tdd' },
        { from: path.join(dir, 'skills/tdd/SKILL.md'), to: 'docs/SKILL.md' },
      ],
      env: { SKILL_MODE: 'on' },
      agent_args: ['--verbose'],
    });
    expect(set.resources).to.deep.equal({
      memory_bytes: 512 * 1024 ** 2,
      cpus: 1.5,
      pids: 256,
      disk_bytes: 2 * 1024 ** 3,
    });
    expect(set.repo_owner).to.equal('acme-labs');
    expect(set.probes).to.have.keys('kind', 'description');
    expect(set.hand_over).to.deep.equal(['plan-ready', 'pr-ready']);

    const [first, second] = set.evals;
    expect(first!.files).to.deep.equal([
      { from: path.join(dir, 'task-files/docs/TASK.md'), to: 'docs/TASK.md' },
    ]);
    expect(first!.codebase).to.deep.equal({
      source: { path: '../minimal' },
      baseDir: dir,
      pointer: '/codebase',
    });
    expect(first!.runs).to.equal(3);
    expect([first!.timeout, first!.turn_timeout]).to.deep.equal([900, 300]);
    expect(first!.checks).to.deep.equal([{ name: 'tests', run: 'npm test' }]);
    expect(first!.expected_output).to.equal('A draft pull request.');
    expect(first!.turns).to.deep.equal([
      { message: 'Go on.', phase: 'planning' },
      { message: 'Now build it.', phase: 'execution' },
      { message: 'Push it.', phase: 'execution' },
      { message: 'Back to the plan.', phase: 'planning' },
    ]);
    expect(first!.start).to.deep.equal({
      branch: 'feature/add',
      pull_requests: [
        { title: 'Plan: add the feature', body: 'The plan.', draft: true, state: 'OPEN' },
      ],
    });

    expect(second!.codebase).to.deep.equal({
      source: { url: 'https://example.org/acme/toy.git', ref: 'v1.4.0' },
      baseDir: dir,
      pointer: '/evals/1/codebase',
    });
    expect([second!.runs, second!.phase, second!.timeout, second!.turn_timeout]).to.deep.equal([
      1,
      'execution',
      60,
      30,
    ]);
    expect(
      second!.checks,
      'an eval that declares checks replaces the set-level ones',
    ).to.deep.equal([]);
    expect(second!.start).to.deep.equal({
      pull_requests: [
        {
          title: 'Fix',
          body: 'Done.',
          head: 'fix/bug',
          base: 'main',
          draft: false,
          state: 'MERGED',
        },
      ],
    });
  });

  for (const [memory, bytes] of [
    ['6m', 6 * 1024 ** 2],
    ['3G', 3 * 1024 ** 3],
    [1073741824, 1073741824],
  ] as const) {
    it(`reads memory ${JSON.stringify(memory)} as ${bytes} bytes`, async () => {
      const set = await loadEvalSet(await writeSet({ ...base(), resources: { memory } }));
      expect(set.resources.memory_bytes).to.equal(bytes);
    });
  }

  it("refuses a memory size under Docker's minimum of 6m", async () => {
    await expectProblems({ ...base(), resources: { memory: '64k' } }, [
      ['/resources/memory', 'must be at least 6m'],
    ]);
  });
});

describe('loadEvalSet: an invalid eval set is refused with every problem at its pointer', () => {
  const cases: [string, (set: Record<string, unknown>) => unknown, [string, string][]][] = [
    [
      'an unknown field',
      (s) => ({ ...s, evals: [{ ...evalOf(s), colour: 'blue' }] }),
      [['/evals/0', 'unknown field "colour"']],
    ],
    [
      'a misspelt field, with a suggestion',
      (s) => ({ ...s, evals: [{ id: 'x', promt: 'p' }] }),
      [
        ['/evals/0', 'unknown field "promt" (did you mean "prompt"?)'],
        ['/evals/0', 'missing required field "prompt"'],
      ],
    ],
    [
      'a wrong type',
      (s) => ({ ...s, runs: '2' }),
      [['/runs', 'wrong type: must be an integer, got a string ("2")']],
    ],
    [
      'a missing prompt',
      (s) => ({ ...s, evals: [{ id: 'x' }] }),
      [['/evals/0', 'missing required field "prompt"']],
    ],
    [
      'a missing name',
      (s) => ({ ...s, name: undefined }),
      [['', 'missing required field "name" at the top level']],
    ],
    ['no evals', (s) => ({ ...s, evals: [] }), [['/evals', 'must list at least one item']]],
    [
      'an empty agent command',
      (s) => ({ ...s, agent: { command: [] } }),
      [['/agent/command', 'must list at least one item']],
    ],
    [
      'an id with a slash',
      (s) => ({ ...s, evals: [{ id: 'a/b', prompt: 'p' }] }),
      [['/evals/0/id', 'must be kebab-case (lowercase letters, digits, single dashes), got "a/b"']],
    ],
    [
      'an id with ..',
      (s) => ({ ...s, evals: [{ id: '..', prompt: 'p' }] }),
      [['/evals/0/id', 'must be kebab-case']],
    ],
    [
      'an id climbing out',
      (s) => ({ ...s, evals: [{ id: '../x', prompt: 'p' }] }),
      [['/evals/0/id', 'must be kebab-case']],
    ],
    [
      'a duplicate id',
      (s) => ({
        ...s,
        evals: [
          { id: 'x', prompt: 'p' },
          { id: 'y', prompt: 'p' },
          { id: 'x', prompt: 'q' },
        ],
      }),
      [['/evals/2/id', 'duplicate id "x", first at /evals/0/id']],
    ],
    [
      'an unknown baseline condition',
      (s) => ({ ...s, conditions: { a: {}, b: {} }, baseline_condition: 'c' }),
      [['/baseline_condition', 'no condition named "c" (conditions: a, b)']],
    ],
    [
      'a baseline other than default with no conditions',
      (s) => ({ ...s, baseline_condition: 'with_skill' }),
      [['/baseline_condition', '(conditions: default)']],
    ],
    [
      'a bad condition name',
      (s) => ({ ...s, conditions: { 'With Skill': {} } }),
      [['/conditions/With Skill', 'name "With Skill" must be lowercase letters']],
    ],
    [
      'a missing staged file',
      (s) => ({ ...s, conditions: { with_skill: { stage: { 'skills/x.md': '.claude/x.md' } } } }),
      [['/conditions/with_skill/stage/skills~1x.md', 'no such file or folder: ']],
    ],
    [
      'a staged target with ..',
      (s) => ({ ...s, conditions: { c: { stage: { 'present.md': 'a/../../x' } } } }),
      [['/conditions/c/stage/present.md', 'escapes the work tree']],
    ],
    [
      'an absolute staged target',
      (s) => ({ ...s, conditions: { c: { stage: { 'present.md': '/etc/passwd' } } } }),
      [['/conditions/c/stage/present.md', 'is absolute']],
    ],
    [
      'a staged target in .git',
      (s) => ({ ...s, conditions: { c: { stage: { 'present.md': '.git/hooks/pre-commit' } } } }),
      [['/conditions/c/stage/present.md', '.git']],
    ],
    [
      'a missing overlay file',
      (s) => ({ ...s, evals: [{ ...evalOf(s), files: ['present.md', 'absent.md'] }] }),
      [['/evals/0/files/1', 'no such file or folder: ']],
    ],
    [
      'an overlay file escaping',
      (s) => ({ ...s, evals: [{ ...evalOf(s), files: ['../present.md'] }] }),
      [['/evals/0/files/0', 'escapes the work tree']],
    ],
    [
      'a missing files_root',
      (s) => ({ ...s, evals: [{ ...evalOf(s), files_root: 'nowhere', files: ['a', 'b'] }] }),
      [['/evals/0/files_root', 'no such folder: ']],
    ],
    [
      'a bad start branch',
      (s) => ({ ...s, evals: [{ ...evalOf(s), start: { branch: 'feature..x' } }] }),
      [['/evals/0/start/branch', 'not a valid branch name: "feature..x" must not contain ".."']],
    ],
    [
      'a bad pull-request head',
      (s) => ({
        ...s,
        evals: [{ ...evalOf(s), start: { pull_requests: [{ title: 't', head: 'a b' }] } }],
      }),
      [['/evals/0/start/pull_requests/0/head', 'not a valid branch name']],
    ],
    [
      'a turn of the wrong type',
      (s) => ({ ...s, evals: [{ ...evalOf(s), turns: ['ok', 5] }] }),
      [['/evals/0/turns/1', 'wrong type: must be a string or an object, got an integer']],
    ],
    [
      'a turn missing its message',
      (s) => ({ ...s, evals: [{ ...evalOf(s), turns: [{ phase: 'execution' }] }] }),
      [['/evals/0/turns/0', 'missing required field "message"']],
    ],
    [
      'a short commit as codebase ref',
      (s) => ({ ...s, codebase: { url: 'https://example.org/x.git', ref: 'abc1234' } }),
      [['/codebase', 'short commit hash']],
    ],
    [
      'a bad memory size',
      (s) => ({ ...s, resources: { memory: '2q' } }),
      [['/resources/memory', 'k, m or g']],
    ],
    [
      'too few pids',
      (s) => ({ ...s, resources: { pids: 4 } }),
      [['/resources/pids', 'must be at least 16, got 4']],
    ],
    [
      'no cpus',
      (s) => ({ ...s, resources: { cpus: 0 } }),
      [['/resources/cpus', 'must be at least 0.01, got 0']],
    ],
    [
      'a bad pull-request state',
      (s) => ({
        ...s,
        evals: [{ ...evalOf(s), start: { pull_requests: [{ title: 't', state: 'open' }] } }],
      }),
      [
        [
          '/evals/0/start/pull_requests/0/state',
          'must be one of "OPEN", "CLOSED", "MERGED", got "open"',
        ],
      ],
    ],
    [
      'a bad repo owner',
      (s) => ({ ...s, repo_owner: '-acme' }),
      [['/repo_owner', 'GitHub-like login']],
    ],
    [
      'a duplicate check name',
      (s) => ({
        ...s,
        checks: [
          { name: 't', run: 'a' },
          { name: 't', run: 'b' },
        ],
      }),
      [['/checks/1/name', 'duplicate check "t", first at /checks/0/name']],
    ],
  ];
  for (const [what, change, expected] of cases) {
    it(`refuses ${what}`, async () => {
      await expectProblems(change(base()), expected);
    });
  }

  it('lists every problem at once, in document order, each line naming the file and pointer', async () => {
    const file = path.join(fixtures, 'invalid/evals.json');
    const error = await refusal(file);
    expect(error).to.be.instanceOf(InputError);
    expect(error.exitCode).to.equal(2);
    expect(error.problems.map((p) => p.pointer)).to.deep.equal([
      '',
      '/runs',
      '/evals/1/id',
      '/evals/2',
      '/evals/2/id',
    ]);
    const lines = error.message.split('\n');
    expect(lines[0]).to.equal(`${file} is not a valid eval set (5 problems):`);
    expect(lines.slice(1)).to.include(`  ${file}#: unknown field "colour" at the top level`);
    expect(lines.slice(1)).to.include(
      `  ${file}#/evals/2/id: duplicate id "fine", first at /evals/0/id`,
    );
  });

  it('names the file, line and column of a JSON syntax error', async () => {
    // Written here, not kept as a fixture: a formatter would repair it.
    const file = await writeSet({});
    await writeFile(file, '{\n  "name": "broken",\n  "evals": [],\n}\n');
    const error = await refusal(file);
    expect(error).to.be.instanceOf(EvalSetSyntaxError);
    expect(error.message).to.match(new RegExp(`^${escape(file)}:4:1: not valid JSON: `));
    expect(error.exitCode).to.equal(2);
  });

  it('says so when the file cannot be read', async () => {
    const missing = path.join(fixtures, 'nope/evals.json');
    try {
      await loadEvalSet(missing);
      expect.fail('loaded a missing file');
    } catch (error) {
      expect(error).to.be.instanceOf(InputError);
      expect((error as Error).message).to.equal(`cannot read eval set ${missing}: no such file`);
    }
  });
});

// --- helpers: eval sets written to temporary folders, removed after each test

let temps: string[] = [];
afterEach(async () => {
  await Promise.all(temps.map((t) => rm(t, { recursive: true, force: true })));
  temps = [];
});

function base(): Record<string, unknown> {
  return {
    name: 'case',
    agent: { command: ['agent', '{prompt}'] },
    evals: [{ id: 'one', prompt: 'Do it.' }],
  };
}

function evalOf(set: Record<string, unknown>): Record<string, unknown> {
  return (set.evals as Record<string, unknown>[])[0]!;
}

/** Writes `doc` as evals.json in a fresh folder that also holds present.md; returns the file. */
async function writeSet(doc: unknown): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'evalrig-config-'));
  temps.push(dir);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'present.md'), 'here\n');
  const file = path.join(dir, 'evals.json');
  await writeFile(file, JSON.stringify(doc, null, 2));
  return file;
}

async function refusal(file: string): Promise<EvalSetError> {
  try {
    await loadEvalSet(file);
  } catch (error) {
    expect(error).to.be.instanceOf(EvalSetError);
    return error as EvalSetError;
  }
  return expect.fail(`${file} was accepted`);
}

/** Each expected [pointer, part of the sentence] is among the problems found. */
async function expectProblems(doc: unknown, expected: [string, string][]): Promise<void> {
  const error = await refusal(await writeSet(doc));
  for (const [pointer, words] of expected) {
    const found = error.problems.some((p) => p.pointer === pointer && p.message.includes(words));
    expect(found, `no problem at "${pointer}" saying "${words}" in:\n${error.message}`).to.equal(
      true,
    );
  }
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
