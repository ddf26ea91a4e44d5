import { expect } from 'chai';
import { CLAUDE_CODE_SKILLS, CODEX_SKILLS } from '../../../src/agents/index.js';
import type { StagedInstruction } from '../../../src/treatment/index.js';
import { skillUses } from '../../../src/treatment/index.js';

const skill = (name: string, dir: string): StagedInstruction => ({
  id: `skill:${dir}/${name}/SKILL.md`,
  kind: 'skill',
  path: `${dir}/${name}/SKILL.md`,
  from: '/host/x',
  name,
  loads: true,
  note: null,
  needle: { id: 'x', all: ['x'] },
  undecided: null,
});

describe('treatment: a staged skill the model used, from the answers it gave', () => {
  it("finds the agent's skill tool naming it, and a tool call naming its SKILL.md; only in answers", () => {
    const a = skill('pr-flow', '.claude/skills');
    const b = skill('tdd', '.claude/skills');
    const c = skill('unused', '.claude/skills');
    const calls = [
      // A cut answer asked for nothing the agent ran.
      {
        seq: 1,
        outcome: 'cut' as const,
        toolCalls: [{ id: '1', name: 'Skill', input: '{"skill":"unused"}' }],
      },
      {
        seq: 2,
        outcome: 'complete' as const,
        toolCalls: [{ id: '2', name: 'Skill', input: '{"skill":"pr-flow"}' }],
      },
      {
        seq: 3,
        outcome: 'complete' as const,
        toolCalls: [
          { id: '3', name: 'Read', input: '{"file_path":"/work/toy/.claude/skills/tdd/SKILL.md"}' },
        ],
      },
    ];
    const used = skillUses([a, b, c], calls, CLAUDE_CODE_SKILLS);
    expect([...used]).to.deep.equal([
      [a.id, 2],
      [b.id, 3],
      [c.id, null],
    ]);
  });

  it('Codex has no skill tool: its model reads the SKILL.md with a shell command', () => {
    const a = skill('pr-flow', '.agents/skills');
    const calls = [
      {
        seq: 4,
        outcome: 'complete' as const,
        toolCalls: [
          { id: '1', name: 'exec_command', input: '{"cmd":"cat .agents/skills/pr-flow/SKILL.md"}' },
        ],
      },
    ];
    expect(skillUses([a], calls, CODEX_SKILLS).get(a.id)).to.equal(4);
    const other = [
      {
        seq: 5,
        outcome: 'complete' as const,
        toolCalls: [{ id: '2', name: 'Skill', input: '{"skill":"pr-flow"}' }],
      },
    ];
    expect(skillUses([a], other, CODEX_SKILLS).get(a.id), 'no such tool for Codex').to.equal(null);
  });
});
