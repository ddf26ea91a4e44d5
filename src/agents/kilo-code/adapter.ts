import { AGENT_KINDS } from '../../config/agent-kinds.js';
import { needModel, parseBareVersion, type AgentAdapter } from '../adapter.js';
import { MODEL_ROUTE, relayed } from '../model-route.js';
import {
  KILO_CODE_BIN,
  KILO_CODE_CONTAINER,
  KILO_CODE_DEFAULT_MODEL,
  KILO_CODE_PACKAGE,
  kiloBinaryPath,
  kiloEnv,
} from './launch.js';
import { KILO_CODE_INSTRUCTIONS, KILO_CODE_REFUSALS, KILO_CODE_SKILLS } from './loading.js';
import { KiloCodeSession } from './session.js';

/** Kilo Code (an OpenCode fork): its native binary mounted, Chat Completions through the relay. */
export const KILO_CODE_ADAPTER: AgentAdapter<'kilo-code'> = {
  type: 'kilo-code',
  ...AGENT_KINDS['kilo-code'],
  install: (version) => ({
    package: KILO_CODE_PACKAGE,
    version,
    bin: KILO_CODE_BIN,
    binaryPath: kiloBinaryPath(),
  }),
  containerBinary: KILO_CODE_CONTAINER.binary,
  containerRelay: MODEL_ROUTE.relay,
  modelDir: MODEL_ROUTE.dir,
  gatewayPaths: ['/v1/chat/completions'],
  auth: 'bearer',
  instructions: KILO_CODE_INSTRUCTIONS,
  skills: KILO_CODE_SKILLS,
  refusals: KILO_CODE_REFUSALS,
  // Its model is part of its config, which lives in its environment.
  env: (home, model) => kiloEnv(home, model ?? KILO_CODE_DEFAULT_MODEL),
  versionArgv: relayed([KILO_CODE_CONTAINER.binary, '--version']),
  parseVersion: parseBareVersion,
  newSession: ({ model, extraArgs }) =>
    new KiloCodeSession(needModel('kilo-code', model), extraArgs),
};
