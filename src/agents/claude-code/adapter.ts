import { AGENT_KINDS } from '../../config/agent-kinds.js';
import type { AgentAdapter } from '../adapter.js';
import { CLAUDE_CODE_INSTRUCTIONS } from '../instructions.js';
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
  env: claudeCodeEnv,
  versionArgv: [CLAUDE_CODE_CONTAINER.binary, '--version'],
  parseVersion: parseVersionOutput,
  newSession: ({ extraArgs }) => new ClaudeCodeSession(undefined, extraArgs),
};
