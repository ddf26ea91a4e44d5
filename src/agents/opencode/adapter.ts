import { AGENT_KINDS } from '../../config/agent-kinds.js';
import { needModel, parseBareVersion, type AgentAdapter } from '../adapter.js';
import { OPENCODE_INSTRUCTIONS, OPENCODE_SKILLS } from './loading.js';
import { MODEL_ROUTE, relayed } from '../model-route.js';
import {
  OPENCODE_BIN,
  OPENCODE_CONTAINER,
  OPENCODE_DEFAULT_MODEL,
  OPENCODE_PACKAGE,
  opencodeBinaryPath,
  opencodeEnv,
} from './launch.js';
import { OpenCodeSession } from './session.js';

/** OpenCode: its native binary mounted, Chat Completions through the relay. */
export const OPENCODE_ADAPTER: AgentAdapter<'opencode'> = {
  type: 'opencode',
  ...AGENT_KINDS.opencode,
  install: (version) => ({
    package: OPENCODE_PACKAGE,
    version,
    bin: OPENCODE_BIN,
    binaryPath: opencodeBinaryPath(),
  }),
  containerBinary: OPENCODE_CONTAINER.binary,
  containerRelay: MODEL_ROUTE.relay,
  modelDir: MODEL_ROUTE.dir,
  gatewayPaths: ['/v1/chat/completions'],
  auth: 'bearer',
  instructions: OPENCODE_INSTRUCTIONS,
  skills: OPENCODE_SKILLS,
  refusals: [/^The user rejected permission to use this specific tool call/u],
  // Its model is part of its config, which lives in its environment.
  env: (home, model) => opencodeEnv(home, model ?? OPENCODE_DEFAULT_MODEL),
  versionArgv: relayed([OPENCODE_CONTAINER.binary, '--version']),
  parseVersion: parseBareVersion,
  newSession: ({ model, extraArgs }) =>
    new OpenCodeSession(needModel('opencode', model), extraArgs),
};
