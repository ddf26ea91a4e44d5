import { CLINE_VERIFIED_VERSION } from '../../src/agents/index.js';
import { agentConformance } from './conformance.js';
import type { AgentProfile } from './profile.js';

/** Its one shell tool runs a list of commands. */
const shell = (command: string) => ({
  tool_use: { name: 'run_commands', input: { commands: [command] } },
});

/** Cline: what its binary was seen to load and do (see src/agents/cline/loading.ts). */
export const CLINE_PROFILE: AgentProfile = {
  type: 'cline',
  version: process.env.EVALRIG_CLINE_VERSION ?? CLINE_VERIFIED_VERSION,
  model: 'claude-sonnet-4-6',
  shell,
  useSkill: (name) => ({ tool_use: { name: 'skills', input: { skill: name, args: null } } }),
  skillsDir: '.cline/skills',
  instructions: ['AGENTS.md'],
  nearMisses: [
    { path: '.clinerules/skills/nm-rules/SKILL.md', loads: true },
    { path: '.agents/skills/nm-agents/SKILL.md', loads: true },
    { path: '.claude/skills/nm-claude/SKILL.md', loads: false },
    { path: '.cline/skill/nm-singular/SKILL.md', loads: false },
    // One folder below its skills folders, no deeper; a dot-folder too; a bare one too.
    { path: '.cline/skills/group/nm-deep/SKILL.md', loads: false },
    { path: '.cline/skills/.nm-hidden/SKILL.md', loads: true },
    { path: '.cline/skills/nm-bare/SKILL.md', bare: true, loads: true },
    { path: '.cline/skills/nm-lower/skill.md', loads: false },
    // AGENTS.md at the root and in its two rules folders; no CLAUDE.md, no nested one.
    { path: 'CLAUDE.md', loads: false },
    { path: 'AGENT.md', loads: false },
    { path: 'agents.md', loads: false },
    // One rule per name, the later folder's: .cline/rules/ shadows .clinerules/.
    { path: '.clinerules/AGENTS.md', loads: false },
    { path: '.cline/rules/AGENTS.md', loads: true },
    { path: '.cline/AGENTS.md', loads: false },
    { path: 'sub/AGENTS.md', loads: false },
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
  // A stream cut mid-way is not retried: its prompt fails with the cut's words, the driver
  // prints them and exits 1.
  fatal: {
    response: {
      content: [{ text: 'Part of an answer.' }, shell('echo CUT-CALL-NEVER-RUN')],
      usage: { input_tokens: 0, output_tokens: 0 },
      stream_error: { type: 'overloaded_error' },
    },
    error: /^turn 2: the agent exited 1 \(.*stream cut/u,
  },
  // Its skills tool lists names alone: a description (and its canary) never reaches the model.
  skillListed: (body, name) =>
    (/Available skills: ([^"]*?)\."/u.exec(body)?.[1] ?? '').split(', ').includes(name),
  // Two runs at once: a Bun binary this size needs more than 512 MB.
  resources: { memory: '1g', cpus: 1, pids: 256 },
};

agentConformance(CLINE_PROFILE);
