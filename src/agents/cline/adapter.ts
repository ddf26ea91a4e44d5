import { AGENT_KINDS } from '../../config/agent-kinds.js';
import { needModel, parseBareVersion, type AgentAdapter } from '../adapter.js';
import { MODEL_ROUTE, relayed } from '../model-route.js';
import {
  CLINE_BIN,
  CLINE_CONTAINER,
  CLINE_DRIVER_BUNDLE,
  CLINE_PACKAGE,
  clineBinaryPath,
  clineEnv,
} from './launch.js';
import { CLINE_INSTRUCTIONS, CLINE_REFUSALS, CLINE_SKILLS, clineExitCode } from './loading.js';
import { ClineSession } from './session.js';

/**
 * Cline CLI: its native binary mounted, played through its ACP mode by a driver of evalrig's
 * (the one headless way it continues a session), its OpenAI-compatible provider at the relay.
 */
export const CLINE_ADAPTER: AgentAdapter<'cline'> = {
  type: 'cline',
  ...AGENT_KINDS.cline,
  install: (version) => ({
    package: CLINE_PACKAGE,
    version,
    bin: CLINE_BIN,
    binaryPath: clineBinaryPath(),
  }),
  containerBinary: CLINE_CONTAINER.binary,
  containerRelay: MODEL_ROUTE.relay,
  driver: { container: CLINE_CONTAINER.driver, bundle: CLINE_DRIVER_BUNDLE },
  modelDir: MODEL_ROUTE.dir,
  gatewayPaths: ['/v1/chat/completions'],
  auth: 'bearer',
  instructions: CLINE_INSTRUCTIONS,
  skills: CLINE_SKILLS,
  refusals: CLINE_REFUSALS,
  exitCodeOf: clineExitCode,
  env: (home) => clineEnv(home),
  versionArgv: relayed([CLINE_CONTAINER.binary, '--version']),
  parseVersion: parseBareVersion,
  newSession: ({ model, extraArgs }) => new ClineSession(needModel('cline', model), extraArgs),
};
