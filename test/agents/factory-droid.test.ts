import { FACTORY_DROID_VERIFIED_VERSION } from '../../src/agents/index.js';
import { agentConformance } from './conformance.js';
import type { AgentProfile } from './profile.js';

/** Its shell tool requires a summary and a risk level with its reason beside the command. */
const shell = (command: string) => ({
  tool_use: {
    name: 'Execute',
    input: {
      summary: 'Run the step it asks for',
      command,
      riskLevelReason: 'It runs in a scratch container.',
      riskLevel: 'low',
    },
  },
});
/** Droid Shield scans a commit before it runs, and cannot when the index changes before it. */
const REFUSED = 'git add -A && git commit -qm refused';

/** Factory Droid: what its binary was seen to load and do (see src/agents/factory-droid/loading.ts). */
export const FACTORY_DROID_PROFILE: AgentProfile = {
  type: 'factory-droid',
  version: process.env.EVALRIG_FACTORY_DROID_VERSION ?? FACTORY_DROID_VERIFIED_VERSION,
  model: 'kimi-k2.6',
  shell,
  useSkill: (name) => ({ tool_use: { name: 'Skill', input: { skill: name } } }),
  skillsDir: '.factory/skills',
  // Side by side: neither shadows the other.
  instructions: ['AGENTS.md', 'CLAUDE.md'],
  nearMisses: [
    { path: '.factory/skill/nm-plural/SKILL.md', loads: false },
    { path: '.factory/skills/group/nm-deep/SKILL.md', loads: true },
    { path: '.factory/skills/nm-outer/SKILL.md', loads: true },
    { path: '.factory/skills/nm-outer/inner/SKILL.md', loads: false },
    { path: '.factory/skills/.hidden/nm-hidden/SKILL.md', loads: true },
    { path: '.agents/skills/nm-agents/SKILL.md', loads: true },
    { path: '.agent/skills/nm-agent/SKILL.md', loads: true },
    { path: '.claude/skills/nm-claude/SKILL.md', loads: false },
    { path: '.factory/skills/nm-bare/SKILL.md', bare: true, loads: false },
    { path: '.factory/skills/nm-lower/skill.md', loads: false },
    // Its own spellings, the first in a folder read: Agents.md before agents.md.
    { path: 'Agents.md', loads: true },
    { path: 'agents.md', loads: false },
    { path: 'Claude.md', loads: true },
    { path: 'AGENT.md', loads: false },
    { path: '.factory/AGENTS.md', loads: true },
    { path: '.agents/CLAUDE.md', loads: true },
    { path: '.claude/CLAUDE.md', loads: false },
    { path: 'sub/AGENTS.md', loads: false },
    { path: 'GEMINI.md', loads: false },
  ],
  echoed: 'QWEN.md',
  // Its waits grow with each failure of one request (5 s at least after a 429 or a 529, the
  // retry-after header unread): the 529 and the cut answer are a later request's, so that
  // neither waits behind the 429's.
  faults: [
    { error: { status: 429, retry_after: 0 } },
    {
      content: [{ text: 'Running it.' }, shell(REFUSED)],
      usage: { input_tokens: 610, output_tokens: 21 },
    },
    { error: { status: 529, retry_after: 0 } },
    {
      content: [{ text: 'Part of an answer.' }, shell('echo CUT-CALL-NEVER-RUN')],
      usage: { input_tokens: 0, output_tokens: 0 },
      stream_error: { type: 'overloaded_error' },
    },
    {
      content: [{ text: 'The faults are behind us.' }],
      usage: { input_tokens: 720, output_tokens: 6 },
    },
  ],
  refusedCommand: REFUSED,
  // No fault ends its second turn: it retries 429, 5xx and cut streams (a 400 ends a turn: the
  // e2e). A command of its deny list ends a first turn and is refused in a forked one: see
  // test/integration/agents/factory-droid.test.ts.
  resources: { memory: '1g', cpus: 1, pids: 256 },
};

agentConformance(FACTORY_DROID_PROFILE);
