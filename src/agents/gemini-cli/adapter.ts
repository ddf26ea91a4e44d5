import { AGENT_KINDS } from '../../config/agent-kinds.js';
import { needModel, parseBareVersion, type AgentAdapter } from '../adapter.js';
import { GEMINI_CLI_INSTRUCTIONS, GEMINI_CLI_SKILLS } from './loading.js';
import { MODEL_ROUTE, relayed } from '../model-route.js';
import { NODE_RUNTIME } from '../support.js';
import {
  GEMINI_CLI_BIN,
  GEMINI_CLI_CONTAINER,
  GEMINI_CLI_PACKAGE,
  GEMINI_CLI_SETTINGS,
  geminiCliEnv,
  geminiPackageDir,
} from './launch.js';
import { GeminiCliSession } from './session.js';

/** Gemini CLI: a Node bundle on evalrig's Node, the Gemini API through the relay. */
export const GEMINI_CLI_ADAPTER: AgentAdapter<'gemini-cli'> = {
  type: 'gemini-cli',
  ...AGENT_KINDS['gemini-cli'],
  install: (version) => ({ package: GEMINI_CLI_PACKAGE, version, bin: GEMINI_CLI_BIN }),
  containerBinary: GEMINI_CLI_CONTAINER.package,
  packageDir: geminiPackageDir,
  runtime: 'node',
  settings: { container: GEMINI_CLI_CONTAINER.settings, content: GEMINI_CLI_SETTINGS },
  containerRelay: MODEL_ROUTE.relay,
  modelDir: MODEL_ROUTE.dir,
  gatewayPaths: [
    '/v1beta/models/{model}:streamGenerateContent',
    '/v1beta/models/{model}:generateContent',
  ],
  auth: 'x-goog-api-key',
  instructions: GEMINI_CLI_INSTRUCTIONS,
  skills: GEMINI_CLI_SKILLS,
  // Seen with 0.61.0: a command holding `$(…)` is never run, even with --yolo.
  refusals: [
    /^Command injection detected: /u,
    /^Blocked: command substitution/u,
    /^Tool execution denied by policy\./u,
  ],
  env: geminiCliEnv,
  versionArgv: relayed([NODE_RUNTIME.container, GEMINI_CLI_CONTAINER.entry, '--version']),
  parseVersion: parseBareVersion,
  newSession: ({ model, extraArgs }) =>
    new GeminiCliSession(needModel('gemini-cli', model), extraArgs),
};
