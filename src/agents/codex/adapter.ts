import { AGENT_KINDS } from '../../config/agent-kinds.js';
import { needModel, type AgentAdapter } from '../adapter.js';
import { CODEX_INSTRUCTIONS, CODEX_SKILLS } from './loading.js';
import { relayed } from '../model-route.js';
import {
  CODEX_BIN,
  CODEX_CONTAINER,
  CODEX_PACKAGE,
  codexBinaryPath,
  codexEnv,
  parseCodexVersion,
} from './launch.js';
import { codexExitCode } from './results.js';
import { CodexSession } from './session.js';

/** Codex: its static binary mounted, the Responses API through the relay. */
export const CODEX_ADAPTER: AgentAdapter<'codex'> = {
  type: 'codex',
  ...AGENT_KINDS.codex,
  install: (version) => ({
    package: CODEX_PACKAGE,
    version,
    bin: CODEX_BIN,
    binaryPath: codexBinaryPath(),
  }),
  containerBinary: CODEX_CONTAINER.binary,
  containerRelay: CODEX_CONTAINER.relay,
  modelDir: CODEX_CONTAINER.modelDir,
  gatewayPaths: ['/v1/responses'],
  auth: 'bearer',
  instructions: CODEX_INSTRUCTIONS,
  skills: CODEX_SKILLS,
  // Its approvals' refusals: none under --dangerously-bypass-approvals-and-sandbox.
  refusals: [/^exec command rejected by user/u, /^patch rejected by user/u],
  exitCodeOf: codexExitCode,
  env: codexEnv,
  // Through the relay, as every turn starts: a preflight also shows that it runs there (node).
  versionArgv: relayed([CODEX_CONTAINER.binary, '--version']),
  parseVersion: parseCodexVersion,
  newSession: ({ model, extraArgs }) => new CodexSession(needModel('codex', model), extraArgs),
};
