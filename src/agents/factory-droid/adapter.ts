import { AGENT_KINDS } from '../../config/agent-kinds.js';
import { needModel, parseBareVersion, type AgentAdapter } from '../adapter.js';
import { MODEL_ROUTE, relayed } from '../model-route.js';
import {
  FACTORY_DROID_BIN,
  FACTORY_DROID_CONTAINER,
  FACTORY_DROID_PACKAGE,
  factoryDroidBinaryPath,
  factoryDroidEnv,
} from './launch.js';
import {
  FACTORY_DROID_INSTRUCTIONS,
  FACTORY_DROID_REFUSALS,
  FACTORY_DROID_SKILLS,
  factoryDroidExitCode,
} from './loading.js';
import { FactoryDroidSession } from './session.js';

/**
 * Factory Droid: its native binary mounted, its own custom model speaking Chat Completions
 * through the relay, in Airgap Mode (nothing to its vendor's service).
 */
export const FACTORY_DROID_ADAPTER: AgentAdapter<'factory-droid'> = {
  type: 'factory-droid',
  ...AGENT_KINDS['factory-droid'],
  install: (version) => ({
    package: FACTORY_DROID_PACKAGE,
    version,
    bin: FACTORY_DROID_BIN,
    binaryPath: factoryDroidBinaryPath(),
  }),
  containerBinary: FACTORY_DROID_CONTAINER.binary,
  containerRelay: MODEL_ROUTE.relay,
  modelDir: MODEL_ROUTE.dir,
  gatewayPaths: ['/v1/chat/completions'],
  auth: 'bearer',
  instructions: FACTORY_DROID_INSTRUCTIONS,
  skills: FACTORY_DROID_SKILLS,
  refusals: FACTORY_DROID_REFUSALS,
  exitCodeOf: factoryDroidExitCode,
  // Its model is in the settings file each turn writes (see launch.ts), not its environment.
  env: (home) => factoryDroidEnv(home),
  versionArgv: relayed([FACTORY_DROID_CONTAINER.binary, '--version']),
  parseVersion: parseBareVersion,
  newSession: ({ model, extraArgs }) =>
    new FactoryDroidSession(needModel('factory-droid', model), extraArgs),
};
