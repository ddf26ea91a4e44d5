import { KILO_CODE_VERIFIED_VERSION } from '../../src/agents/index.js';
import { agentConformance } from './conformance.js';
import type { AgentProfile } from './profile.js';

const shell = (command: string) => ({
  tool_use: { name: 'bash', input: { command, description: 'Run it.' } },
});

/** Kilo Code: what its binary was seen to load and do (see src/agents/kilo-code/loading.ts). */
export const KILO_CODE_PROFILE: AgentProfile = {
  type: 'kilo-code',
  version: process.env.EVALRIG_KILO_CODE_VERSION ?? KILO_CODE_VERIFIED_VERSION,
  model: 'grok-code-fast-1',
  shell,
  useSkill: (name) => ({ tool_use: { name: 'skill', input: { name } } }),
  skillsDir: '.kilo/skills',
  instructions: ['AGENTS.md'],
  nearMisses: [
    // Its own folders take skill/ as well as skills/, at any depth; Claude Code's does not.
    { path: '.kilo/skill/nm-singular/SKILL.md', loads: true },
    { path: '.kilo/skills/group/nm-deep/SKILL.md', loads: true },
    { path: '.kilo/skills/nm-outer/SKILL.md', loads: true },
    { path: '.kilo/skills/nm-outer/inner/SKILL.md', loads: true },
    { path: '.kilo/skills/.hidden/nm-hidden/SKILL.md', loads: false },
    { path: '.kilocode/skills/nm-legacy/SKILL.md', loads: true },
    { path: '.claude/skills/nm-claude/SKILL.md', loads: true },
    { path: '.claude/skill/nm-claude-singular/SKILL.md', loads: false },
    { path: '.agents/skills/nm-agents/SKILL.md', loads: true },
    // The fork reads none of OpenCode's folders.
    { path: '.opencode/skills/nm-opencode/SKILL.md', loads: false },
    { path: '.kilo/skills/nm-bare/SKILL.md', bare: true, loads: false },
    { path: '.kilo/skills/nm-lower/skill.md', loads: false },
    { path: 'AGENT.md', loads: false },
    { path: 'agents.md', loads: false },
    // CLAUDE.md is read only where there is no AGENTS.md.
    { path: 'AGENTS.md', loads: true },
    { path: 'CLAUDE.md', loads: false },
    { path: '.kilo/AGENTS.md', loads: false },
  ],
  echoed: 'GEMINI.md',
  // It goes through a 429 and a 529 (answered 503 on Chat Completions); a stream cut mid-way
  // ends its turn (below).
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
  // A stream cut mid-way (an error chunk of type overloaded_error) is not retried: an `error`
  // line (UnknownError, the chunk's error as its message), then exit 1.
  fatal: {
    response: {
      content: [{ text: 'Part of an answer.' }, shell('echo CUT-CALL-NEVER-RUN')],
      usage: { input_tokens: 0, output_tokens: 0 },
      stream_error: { type: 'overloaded_error' },
    },
    error: /^turn 2: the agent exited 1 \(UnknownError: .*stream cut.*overloaded_error/u,
  },
  // Two runs at once: as OpenCode, 512 MB is too little for a Bun binary this size.
  resources: { memory: '1g', cpus: 1, pids: 256 },
};

agentConformance(KILO_CODE_PROFILE);
