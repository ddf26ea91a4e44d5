import { COPILOT_CLI_VERIFIED_VERSION } from '../../src/agents/index.js';
import { agentConformance } from './conformance.js';
import { usualFaults, type AgentProfile } from './profile.js';

const shell = (command: string) => ({
  tool_use: { name: 'bash', input: { command, description: 'Run it.' } },
});
/** Copilot CLI never runs pkill or killall, even with --allow-all: its shell policy. */
const REFUSED = 'pkill -f evalrig-nothing';

/** Copilot CLI: what its binary was seen to load and do (see src/agents/copilot-cli/loading.ts). */
export const COPILOT_CLI_PROFILE: AgentProfile = {
  type: 'copilot-cli',
  version: process.env.EVALRIG_COPILOT_CLI_VERSION ?? COPILOT_CLI_VERIFIED_VERSION,
  model: 'gpt-5.4',
  shell,
  useSkill: (name) => ({ tool_use: { name: 'skill', input: { skill: name } } }),
  skillsDir: '.github/skills',
  // Side by side: none shadows another.
  instructions: ['AGENTS.md', 'CLAUDE.md', 'GEMINI.md', '.github/copilot-instructions.md'],
  nearMisses: [
    { path: '.github/skill/nm-plural/SKILL.md', loads: false },
    { path: '.github/skills/group/nm-deep/SKILL.md', loads: true },
    { path: '.github/skills/nm-outer/SKILL.md', loads: true },
    { path: '.github/skills/nm-outer/inner/SKILL.md', loads: false },
    { path: '.github/skills/.hidden/nm-hidden/SKILL.md', loads: false },
    { path: '.claude/skills/nm-claude/SKILL.md', loads: true },
    { path: '.agents/skills/nm-agents/SKILL.md', loads: true },
    { path: '.copilot/skills/nm-copilot/SKILL.md', loads: false },
    { path: '.github/skills/nm-bare/SKILL.md', bare: true, loads: false },
    { path: '.github/skills/nm-lower/skill.md', loads: false },
    // Its names are found whatever their case; a letter off is not.
    { path: 'agents.md', loads: true },
    { path: '.github/Copilot-Instructions.md', loads: true },
    { path: 'AGENT.md', loads: false },
    { path: 'copilot-instructions.md', loads: false },
    { path: '.github/AGENTS.md', loads: false },
    { path: 'QWEN.md', loads: false },
  ],
  echoed: 'QWEN.md',
  faults: usualFaults(shell, REFUSED),
  refusedCommand: REFUSED,
  resources: { memory: '1g', cpus: 1, pids: 256 },
};

agentConformance(COPILOT_CLI_PROFILE);
