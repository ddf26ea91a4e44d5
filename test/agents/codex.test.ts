import { CODEX_VERIFIED_VERSION } from '../../src/agents/index.js';
import { agentConformance } from './conformance.js';
import type { AgentProfile } from './profile.js';

const shell = (cmd: string) => ({ tool_use: { name: 'exec_command', input: { cmd } } });

/** Codex: what its binary was seen to load and do (see src/agents/codex/loading.ts). */
export const CODEX_PROFILE: AgentProfile = {
  type: 'codex',
  version: process.env.EVALRIG_CODEX_VERSION ?? CODEX_VERIFIED_VERSION,
  model: 'gpt-5.1-codex',
  shell,
  // Codex has no skill tool: its model reads the SKILL.md it lists.
  useSkill: (name, dir) => shell(`cat ${dir}/${name}/SKILL.md`),
  skillsDir: '.agents/skills',
  instructions: ['AGENTS.md'],
  nearMisses: [
    { path: '.codex/skill/nm-plural/SKILL.md', loads: false },
    { path: '.agents/skills/group/nm-deep/SKILL.md', loads: true },
    { path: '.codex/skills/nm-codex/SKILL.md', loads: true },
    { path: '.agents/skills/nm-bare/SKILL.md', bare: true, loads: false },
    { path: '.agents/skills/nm-lower/skill.md', loads: false },
    { path: 'AGENT.md', loads: false },
    { path: 'agents.md', loads: false },
    { path: 'CLAUDE.md', loads: false },
  ],
  echoed: 'CLAUDE.md',
  // The Responses API's own faults: a 429, a 529, a failed response, an incomplete one, answers.
  faults: [
    { error: { status: 429, retry_after: 0 } },
    { error: { status: 529, retry_after: 0 } },
    {
      content: [{ text: 'Part of an answer.' }, shell('echo CUT-CALL-NEVER-RUN')],
      usage: { input_tokens: 0, output_tokens: 0 },
      stream_error: { type: 'server_error' },
    },
    {
      content: [{ text: 'Running it.' }, shell('echo ok')],
      usage: { input_tokens: 610, output_tokens: 21 },
    },
    {
      content: [{ text: 'The faults are behind us.' }],
      usage: { input_tokens: 720, output_tokens: 6 },
    },
  ],
  // A real answer a limit cut short (response.incomplete) ends Codex's turn as an error.
  fatal: {
    response: {
      content: [{ text: 'Cut short by a limit.' }],
      usage: { input_tokens: 650, output_tokens: 16 },
      stop_reason: 'max_tokens',
    },
    error: /^turn 2: the agent exited 1 \(Incomplete response returned, reason: max_output_tokens/u,
  },
};

agentConformance(CODEX_PROFILE);
