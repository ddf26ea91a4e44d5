import { QWEN_CODE_VERIFIED_VERSION } from '../../src/agents/index.js';
import { agentConformance } from './conformance.js';
import type { AgentProfile } from './profile.js';

const shell = (command: string) => ({
  tool_use: {
    name: 'run_shell_command',
    input: { command, is_background: false, description: 'Run it.' },
  },
});

/** Qwen Code: what its binary was seen to load and do (see src/agents/qwen-code/loading.ts). */
export const QWEN_CODE_PROFILE: AgentProfile = {
  type: 'qwen-code',
  version: process.env.EVALRIG_QWEN_CODE_VERSION ?? QWEN_CODE_VERIFIED_VERSION,
  model: 'qwen3-coder-plus',
  shell,
  useSkill: (name) => ({ tool_use: { name: 'skill', input: { skill: name } } }),
  skillsDir: '.qwen/skills',
  instructions: ['QWEN.md', 'AGENTS.md'],
  nearMisses: [
    { path: '.qwen/skill/nm-plural/SKILL.md', loads: false },
    { path: '.qwen/skills/group/nm-deep/SKILL.md', loads: false },
    { path: '.agents/skills/nm-agents/SKILL.md', loads: true },
    { path: '.qwen/skills/nm-bare/SKILL.md', bare: true, loads: false },
    { path: '.qwen/skills/nm-lower/skill.md', loads: false },
    { path: 'AGENT.md', loads: false },
    { path: 'qwen.md', loads: false },
    { path: 'GEMINI.md', loads: false },
    { path: 'CLAUDE.md', loads: false },
  ],
  echoed: 'CLAUDE.md',
  // It goes through a 429 and a 529; a stream cut mid-way ends its turn (below).
  faults: [
    { error: { status: 429, retry_after: 0 } },
    { error: { status: 529, retry_after: 0 } },
    {
      content: [{ text: 'Running it.' }, shell('echo ok')],
      usage: { input_tokens: 610, output_tokens: 21 },
    },
    {
      content: [{ text: 'The faults are behind us.' }],
      usage: { input_tokens: 720, output_tokens: 6 },
    },
  ],
  // A stream cut mid-way is its answer, written "[API Error: …]" after the part it got.
  fatal: {
    response: {
      content: [{ text: 'Part of an answer.' }],
      usage: { input_tokens: 0, output_tokens: 0 },
      stream_error: { type: 'overloaded_error' },
    },
    error: /^turn 2: the agent reported an error: \[API Error: /u,
  },
  resources: { memory: '1g', cpus: 1, pids: 256 },
};

agentConformance(QWEN_CODE_PROFILE);
