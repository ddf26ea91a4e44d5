import { GEMINI_CLI_VERIFIED_VERSION } from '../../src/agents/index.js';
import { agentConformance } from './conformance.js';
import { usualFaults, type AgentProfile } from './profile.js';

const shell = (command: string) => ({
  tool_use: { name: 'run_shell_command', input: { command, description: 'Run it.' } },
});
/** Gemini CLI never runs a command holding a command substitution, even with --yolo. */
const REFUSED = 'echo $(id -u)';

/** Gemini CLI: what its binary was seen to load and do (see src/agents/gemini-cli/loading.ts). */
export const GEMINI_CLI_PROFILE: AgentProfile = {
  type: 'gemini-cli',
  version: process.env.EVALRIG_GEMINI_CLI_VERSION ?? GEMINI_CLI_VERIFIED_VERSION,
  model: 'gemini-2.5-pro',
  shell,
  useSkill: (name) => ({ tool_use: { name: 'activate_skill', input: { name } } }),
  skillsDir: '.gemini/skills',
  instructions: ['GEMINI.md'],
  nearMisses: [
    { path: '.gemini/skill/nm-plural/SKILL.md', loads: false },
    { path: '.gemini/skills/group/nm-deep/SKILL.md', loads: false },
    { path: '.agents/skills/nm-agents/SKILL.md', loads: true },
    { path: '.gemini/skills/nm-bare/SKILL.md', bare: true, loads: false },
    { path: '.gemini/skills/nm-lower/skill.md', loads: false },
    { path: 'AGENT.md', loads: false },
    { path: 'gemini.md', loads: false },
    { path: 'AGENTS.md', loads: false },
    { path: 'CLAUDE.md', loads: false },
  ],
  echoed: 'QWEN.md',
  faults: usualFaults(shell, REFUSED),
  refusedCommand: REFUSED,
  resources: { memory: '1g', cpus: 1, pids: 256 },
};

agentConformance(GEMINI_CLI_PROFILE);
