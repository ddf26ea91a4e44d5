import { AGENT_KINDS } from '../../config/agent-kinds.js';
import type { AgentAdapter } from '../adapter.js';
import { CLAUDE_CODE_INSTRUCTIONS, CLAUDE_CODE_SKILLS } from './loading.js';
import {
  CLAUDE_CODE_BIN,
  CLAUDE_CODE_CONTAINER,
  CLAUDE_CODE_PACKAGE,
  claudeCodeEnv,
} from './launch.js';
import { ClaudeCodeSession, parseVersionOutput } from './session.js';

/** Claude Code: its native binary mounted, the Messages API straight on the gateway's socket. */
export const CLAUDE_CODE_ADAPTER: AgentAdapter<'claude-code'> = {
  type: 'claude-code',
  ...AGENT_KINDS['claude-code'],
  install: (version) => ({ package: CLAUDE_CODE_PACKAGE, version, bin: CLAUDE_CODE_BIN }),
  containerBinary: CLAUDE_CODE_CONTAINER.binary,
  modelDir: CLAUDE_CODE_CONTAINER.modelDir,
  gatewayPaths: ['/v1/messages'],
  auth: 'x-api-key',
  instructions: CLAUDE_CODE_INSTRUCTIONS,
  skills: CLAUDE_CODE_SKILLS,
  // Its permission denials: none under --dangerously-skip-permissions but a hook's.
  refusals: [
    /^Permission to use \S+ (?:with command .* )?has been denied/u,
    /requested permissions to use \S+, but you haven't granted it/u,
    /^The user doesn't want to proceed with this tool use/u,
  ],
  env: claudeCodeEnv,
  versionArgv: [CLAUDE_CODE_CONTAINER.binary, '--version'],
  parseVersion: parseVersionOutput,
  newSession: ({ extraArgs }) => new ClaudeCodeSession(undefined, extraArgs),
};
