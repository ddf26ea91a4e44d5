import { expect } from 'chai';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  AGENT_ADAPTERS,
  CLAUDE_CODE_INSTRUCTIONS,
  CODEX_INSTRUCTIONS,
} from '../../../src/agents/index.js';
import { TreatmentAccumulator } from '../../../src/report/treatment.js';
import {
  frontMatterOf,
  needlesOf,
  runTreatment,
  stagedInstructions,
} from '../../../src/treatment/index.js';

const SKILL =
  '---\nname: pr-flow\ndescription: >\n  Opens a draft pull\n  request first.\n---\n\n# PR flow\nDo it.\n';

describe('treatment: what a condition stages, what its agent loads, what reached the model', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'evalrig-treatment-'));
    await mkdir(path.join(dir, 'skills/pr-flow'), { recursive: true });
    await writeFile(path.join(dir, 'skills/pr-flow/SKILL.md'), SKILL);
    await writeFile(path.join(dir, 'skills/pr-flow/notes.md'), 'not an instruction file');
    await writeFile(path.join(dir, 'bare.md'), 'Camel rule for everything.\nSecond line.\n');
    await writeFile(
      path.join(dir, 'CLAUDE.md'),
      '<!-- a comment -->\n\n# Project\nUse tabs.\nNever merge.\n',
    );
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('reads front matter with a YAML parser: plain and folded values, quotes and escapes undone', () => {
    expect(
      frontMatterOf('---\nname: q\ndescription: "a \\"b\\" \\u2713 <c>"\n---\n').fields,
    ).to.deep.equal({
      name: 'q',
      description: 'a "b" \u2713 <c>',
    });
    expect(frontMatterOf('---\nname: [unclosed\n---\nbody').problem).to.match(/flow sequence/iu);
    expect(frontMatterOf(SKILL).fields).to.deep.equal({
      name: 'pr-flow',
      description: 'Opens a draft pull request first.',
    });
    expect(frontMatterOf('no front matter').frontMatter).to.equal(false);
    expect(frontMatterOf("---\nname: 'q'\n---\nbody").fields.name).to.equal('q');
  });

  it('finds the skills and instruction files among the staged paths, each with what to look for', async () => {
    const staged = await stagedInstructions(
      {
        stage: [
          { from: path.join(dir, 'skills/pr-flow'), to: '.claude/skills/pr-flow' },
          { from: path.join(dir, 'CLAUDE.md'), to: 'CLAUDE.md' },
        ],
      },
      AGENT_ADAPTERS['claude-code'],
    );
    expect(staged.map((s) => [s.id, s.name, s.loads, s.note])).to.deep.equal([
      ['skill:.claude/skills/pr-flow/SKILL.md', 'pr-flow', true, null],
      ['instructions:CLAUDE.md', null, true, null],
    ]);
    expect(needlesOf(staged).map((n) => n.all)).to.deep.equal([
      ['- pr-flow: Opens a draft pull request first.'],
      ['# Project', 'Use tabs.', 'Never merge.'],
    ]);
  });

  it('knows which paths each agent loads, and says why not', () => {
    const skill = (p: string, frontMatter = true) => ({
      path: p,
      kind: 'skill' as const,
      frontMatter,
    });
    const file = (p: string) => ({ path: p, kind: 'instructions' as const, frontMatter: false });
    expect(CLAUDE_CODE_INSTRUCTIONS(skill('.claude/skills/x/SKILL.md')).loads).to.equal(true);
    expect(CLAUDE_CODE_INSTRUCTIONS(skill('.claude/skill/x/SKILL.md')).note).to.match(/plural/u);
    expect(CLAUDE_CODE_INSTRUCTIONS(skill('.claude/skills/g/x/SKILL.md')).note).to.match(/deeper/u);
    expect(CLAUDE_CODE_INSTRUCTIONS(skill('.claude/skills/x/SKILL.md', false))).to.deep.include({
      loads: true,
    });
    expect(CLAUDE_CODE_INSTRUCTIONS(skill('.codex/skills/x/SKILL.md')).loads).to.equal(false);
    expect(CLAUDE_CODE_INSTRUCTIONS(file('AGENTS.md')).loads).to.equal(true);
    expect(CODEX_INSTRUCTIONS(skill('.agents/skills/g/x/SKILL.md')).loads).to.equal(true);
    expect(CODEX_INSTRUCTIONS(skill('.codex/skills/x/SKILL.md', false)).note).to.match(
      /front matter/u,
    );
    expect(CODEX_INSTRUCTIONS(skill('.claude/skills/x/SKILL.md')).loads).to.equal(false);
    expect(CODEX_INSTRUCTIONS(file('CLAUDE.md')).loads).to.equal(false);
  });

  it("a skill without front matter goes by its folder's name and its first line", async () => {
    const [staged] = await stagedInstructions(
      {
        stage: [{ from: path.join(dir, 'bare.md'), to: '.claude/skills/camel/SKILL.md' }],
      },
      AGENT_ADAPTERS['claude-code'],
    );
    expect(staged).to.deep.include({ name: 'camel', loads: true });
    expect(staged!.needle!.all).to.deep.equal(['- camel: Camel rule for everything.']);
  });

  it('a run reached its condition when every staged instruction was seen in a request', async () => {
    const staged = await stagedInstructions(
      {
        stage: [
          { from: path.join(dir, 'skills/pr-flow'), to: '.claude/skills/pr-flow' },
          { from: path.join(dir, 'CLAUDE.md'), to: 'CLAUDE.md' },
        ],
      },
      AGENT_ADAPTERS['claude-code'],
    );
    const seen = [
      { id: 'skill:.claude/skills/pr-flow/SKILL.md', seq: 1 },
      { id: 'instructions:CLAUDE.md', seq: null },
    ];
    const treatment = runTreatment(staged, { needles: seen, unsearched: null, used: new Map() }, [
      'pr-flow',
    ]);
    expect(treatment.reached).to.equal(false);
    expect(
      treatment.staged.map((s) => [s.path, s.reached, s.first_call, s.listed_by_agent]),
    ).to.deep.equal([
      ['.claude/skills/pr-flow/SKILL.md', true, 1, true],
      ['CLAUDE.md', false, null, undefined],
    ]);
    const none = { needles: [], unsearched: null, used: new Map() };
    expect(runTreatment([], none, null)).to.deep.equal({ staged: [], reached: null, used: null });
  });

  it('the report warns first for each condition whose staged instructions missed a run', () => {
    const acc = new TreatmentAccumulator();
    const wrong = {
      staged: [
        {
          kind: 'skill' as const,
          path: '.claude/skill/x/SKILL.md',
          name: 'x',
          loads: false,
          reached: false,
          first_call: null,
        },
      ],
      reached: false,
    };
    const right = {
      ...wrong,
      staged: [
        {
          ...wrong.staged[0]!,
          path: '.claude/skills/x/SKILL.md',
          loads: true,
          reached: true,
          first_call: 1,
        },
      ],
      reached: true,
    };
    for (let i = 0; i < 3; i++)
      acc.add({ condition: 'wrong_path', status: 'completed', treatment: wrong });
    acc.add({ condition: 'wrong_path', status: 'failed', treatment: wrong });
    acc.add({ condition: 'right_path', status: 'completed', treatment: right });
    const missed = {
      staged: [{ ...right.staged[0]!, reached: false, first_call: null }],
      reached: false,
    };
    acc.add({ condition: 'right_path', status: 'completed', treatment: missed });
    expect(acc.warnings().map((w) => w.text)).to.deep.equal([
      'wrong_path: the staged skill x (.claude/skill/x/SKILL.md), a path the agent does not load, reached the model in 0/3 runs: nothing was compared',
      'right_path: the staged skill x (.claude/skills/x/SKILL.md) reached the model in 1/2 runs: 1 of its runs compared nothing',
    ]);
    expect(acc.warnings()[1]).to.deep.include({ reached: 1, runs: 2, undecided: 0 });
    expect(acc.warnings()[1]!.missed).to.deep.equal([
      {
        kind: 'skill',
        path: '.claude/skills/x/SKILL.md',
        name: 'x',
        reached: 1,
        runs: 2,
        loads: true,
        undecided: 0,
      },
    ]);
  });
});

describe("treatment: each agent's listing of a skill, its near misses, what cannot be decided", () => {
  let dir: string;
  const ESCAPED =
    '---\nname: tdd\ndescription: "Use when \\"red\\" <tests> & \\u2713 pass"\n---\nBody.\n';
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'evalrig-listing-'));
    await writeFile(path.join(dir, 'escaped.md'), ESCAPED);
    await writeFile(path.join(dir, 'empty.md'), '\n\n');
    await writeFile(
      path.join(dir, 'folded.md'),
      '---\nname: f\ndescription: >\n  Folded\n  text.\n---\n',
    );
    await writeFile(path.join(dir, 'rules.md'), 'Use tabs.\n');
  });
  after(() => rm(dir, { recursive: true, force: true }));
  const stage = (from: string, to: string) => ({ stage: [{ from: path.join(dir, from), to }] });

  it('looks for a skill as its agent lists it: escapes undone, then written its way', async () => {
    const needle = async (type: keyof typeof AGENT_ADAPTERS, to: string) =>
      (await stagedInstructions(stage('escaped.md', to), AGENT_ADAPTERS[type]))[0]!.needle!.all[0];
    expect(await needle('claude-code', '.claude/skills/tdd/SKILL.md')).to.equal(
      '- tdd: Use when "red" &lt;tests&gt; & \u2713 pass',
    );
    expect(await needle('codex', '.agents/skills/tdd/SKILL.md')).to.equal(
      '- tdd: Use when "red" <tests> & \u2713 pass',
    );
    expect(await needle('gemini-cli', '.gemini/skills/tdd/SKILL.md')).to.equal(
      '<name>tdd</name><description>Use when "red" <tests> & \u2713 pass',
    );
    // Qwen Code reads the description its own way (\u2713 kept) and escapes every entity.
    expect(await needle('qwen-code', '.qwen/skills/tdd/SKILL.md')).to.equal(
      '<name>tdd</name><description>Use when &quot;red&quot; &lt;tests&gt; &amp; \\u2713 pass',
    );
  });

  it('watches near-missed names and says which file is meant', async () => {
    const [agent] = await stagedInstructions(stage('rules.md', 'AGENT.md'), AGENT_ADAPTERS.codex);
    expect(agent).to.deep.include({ kind: 'instructions', path: 'AGENT.md', loads: false });
    expect(agent!.note).to.match(/^Codex reads AGENTS\.md, not AGENT\.md/u);
    const [lower] = await stagedInstructions(
      stage('rules.md', 'claude.md'),
      AGENT_ADAPTERS['claude-code'],
    );
    expect(lower).to.deep.include({ loads: false });
    const [gemini] = await stagedInstructions(
      stage('rules.md', 'AGENT.md'),
      AGENT_ADAPTERS['gemini-cli'],
    );
    expect(gemini!.note).to.match(/^Gemini CLI reads no AGENT\.md; not even as AGENTS\.md/u);
  });

  it('one staged file shadows another: AGENTS.md beside a CLAUDE.md for Claude Code', async () => {
    const staged = await stagedInstructions(
      {
        stage: [
          { from: path.join(dir, 'rules.md'), to: 'CLAUDE.md' },
          { from: path.join(dir, 'rules.md'), to: 'AGENTS.md' },
        ],
      },
      AGENT_ADAPTERS['claude-code'],
    );
    expect(staged.map((s) => [s.path, s.loads])).to.deep.equal([
      ['CLAUDE.md', true],
      ['AGENTS.md', false],
    ]);
  });

  it('what has nothing to look for is undecided, never reached', async () => {
    const [empty] = await stagedInstructions(
      stage('empty.md', 'CLAUDE.md'),
      AGENT_ADAPTERS['claude-code'],
    );
    expect(empty).to.deep.include({ needle: null, undecided: 'the file has no text to look for' });
    // Qwen Code's own reader takes no block value for a description.
    const [folded] = await stagedInstructions(
      stage('folded.md', '.qwen/skills/f/SKILL.md'),
      AGENT_ADAPTERS['qwen-code'],
    );
    expect(folded!.needle).to.equal(null);
    const seen = { needles: [], unsearched: null, used: new Map() };
    expect(runTreatment([empty!], seen, null)).to.deep.include({ reached: null });
    expect(runTreatment([empty!], seen, null).staged[0]).to.deep.include({
      reached: null,
      undecided: 'the file has no text to look for',
    });
  });
});
