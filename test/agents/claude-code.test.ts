import { CLAUDE_CODE_VERIFIED_VERSION } from '../../src/agents/index.js';
import { agentConformance } from './conformance.js';
import { usualFaults, type AgentProfile } from './profile.js';

const shell = (command: string) => ({ tool_use: { name: 'Bash', input: { command } } });

/** Claude Code: what its binary was seen to load and do (see src/agents/claude-code/loading.ts). */
export const CLAUDE_CODE_PROFILE: AgentProfile = {
  type: 'claude-code',
  version: process.env.EVALRIG_CLAUDE_CODE_VERSION ?? CLAUDE_CODE_VERIFIED_VERSION,
  shell,
  useSkill: (name) => ({ tool_use: { name: 'Skill', input: { skill: name } } }),
  skillsDir: '.claude/skills',
  instructions: ['CLAUDE.md'],
  nearMisses: [
    { path: '.claude/skill/nm-plural/SKILL.md', loads: false },
    { path: '.claude/skills/group/nm-deep/SKILL.md', loads: false },
    { path: '.claude/Skills/nm-case/SKILL.md', loads: false },
    { path: '.claude/skills/nm-lower/skill.md', loads: false },
    { path: '.claude/skills/nm-bare/SKILL.md', bare: true, loads: true },
    { path: 'AGENT.md', loads: false },
    { path: 'claude.md', loads: false },
    // AGENTS.md is read only where there is no CLAUDE.md.
    { path: 'CLAUDE.md', loads: true },
    { path: 'AGENTS.md', loads: false },
  ],
  echoed: 'GEMINI.md',
  faults: usualFaults(shell, 'echo ok'),
};

agentConformance(CLAUDE_CODE_PROFILE);
