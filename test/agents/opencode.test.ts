import { OPENCODE_VERIFIED_VERSION } from '../../src/agents/index.js';
import { agentConformance } from './conformance.js';
import { usualFaults, type AgentProfile } from './profile.js';

const shell = (command: string) => ({
  tool_use: { name: 'bash', input: { command, description: 'Run it.' } },
});

/** OpenCode: what its binary was seen to load and do (see src/agents/opencode/loading.ts). */
export const OPENCODE_PROFILE: AgentProfile = {
  type: 'opencode',
  version: process.env.EVALRIG_OPENCODE_VERSION ?? OPENCODE_VERIFIED_VERSION,
  model: 'gpt-5.1',
  shell,
  useSkill: (name) => ({ tool_use: { name: 'skill', input: { name } } }),
  skillsDir: '.opencode/skills',
  instructions: ['AGENTS.md'],
  nearMisses: [
    { path: '.agent/skills/nm-plural/SKILL.md', loads: false },
    { path: '.opencode/skills/group/nm-deep/SKILL.md', loads: true },
    { path: '.claude/skills/nm-claude/SKILL.md', loads: true },
    { path: '.agents/skills/nm-agents/SKILL.md', loads: true },
    { path: '.opencode/skills/nm-bare/SKILL.md', bare: true, loads: false },
    { path: '.opencode/skills/nm-lower/skill.md', loads: false },
    { path: 'AGENT.md', loads: false },
    { path: 'agents.md', loads: false },
    // CLAUDE.md is read only where there is no AGENTS.md.
    { path: 'AGENTS.md', loads: true },
    { path: 'CLAUDE.md', loads: false },
  ],
  echoed: 'GEMINI.md',
  faults: usualFaults(shell, 'echo ok'),
  // Two runs at once: 512 MB is too little for it (exit 137 under load).
  resources: { memory: '1g', cpus: 1, pids: 256 },
};

agentConformance(OPENCODE_PROFILE);
