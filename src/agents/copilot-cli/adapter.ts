import { AGENT_KINDS } from '../../config/agent-kinds.js';
import type { AgentAdapter } from '../adapter.js';
import { MODEL_ROUTE, relayed } from '../model-route.js';
import {
  COPILOT_CLI_BIN,
  COPILOT_CLI_CONTAINER,
  COPILOT_CLI_DEFAULT_MODEL,
  COPILOT_CLI_PACKAGE,
  copilotBinaryPath,
  copilotEnv,
  parseCopilotVersion,
} from './launch.js';
import { COPILOT_CLI_INSTRUCTIONS, COPILOT_CLI_REFUSALS, COPILOT_CLI_SKILLS } from './loading.js';
import { CopilotCliSession } from './session.js';
import { ensureCopilotUnpacked } from './unpack.js';

/**
 * Copilot CLI: its native binary mounted with the package cache unpacked from it on the host
 * (read-only), its own provider speaking Chat Completions through the relay.
 */
export const COPILOT_CLI_ADAPTER: AgentAdapter<'copilot-cli'> = {
  type: 'copilot-cli',
  ...AGENT_KINDS['copilot-cli'],
  install: (version) => ({
    package: COPILOT_CLI_PACKAGE,
    version,
    bin: COPILOT_CLI_BIN,
    binaryPath: copilotBinaryPath(),
  }),
  containerBinary: COPILOT_CLI_CONTAINER.binary,
  unpacked: { container: COPILOT_CLI_CONTAINER.pkgCache, unpack: ensureCopilotUnpacked },
  containerRelay: MODEL_ROUTE.relay,
  modelDir: MODEL_ROUTE.dir,
  gatewayPaths: ['/v1/chat/completions'],
  auth: 'bearer',
  instructions: COPILOT_CLI_INSTRUCTIONS,
  skills: COPILOT_CLI_SKILLS,
  refusals: COPILOT_CLI_REFUSALS,
  env: (home, model) => copilotEnv(home, model ?? COPILOT_CLI_DEFAULT_MODEL),
  versionArgv: relayed([COPILOT_CLI_CONTAINER.binary, '--version']),
  parseVersion: parseCopilotVersion,
  // Its model is in its environment (COPILOT_MODEL), not its argv.
  newSession: ({ extraArgs }) => new CopilotCliSession(extraArgs),
};
