import { AGENT_KINDS } from '../../config/agent-kinds.js';
import { needModel, parseBareVersion, type AgentAdapter } from '../adapter.js';
import { QWEN_CODE_INSTRUCTIONS, QWEN_CODE_SKILLS } from './loading.js';
import { MODEL_ROUTE, relayed } from '../model-route.js';
import { NODE_RUNTIME } from '../support.js';
import {
  QWEN_CODE_BIN,
  QWEN_CODE_CONTAINER,
  QWEN_CODE_PACKAGE,
  QWEN_CODE_SETTINGS,
  qwenCodeEnv,
  qwenPackageDir,
} from './launch.js';
import { QwenCodeSession } from './session.js';

/** Qwen Code: a Node bundle on evalrig's Node, Chat Completions through the relay. */
export const QWEN_CODE_ADAPTER: AgentAdapter<'qwen-code'> = {
  type: 'qwen-code',
  ...AGENT_KINDS['qwen-code'],
  install: (version) => ({ package: QWEN_CODE_PACKAGE, version, bin: QWEN_CODE_BIN }),
  containerBinary: QWEN_CODE_CONTAINER.package,
  packageDir: qwenPackageDir,
  runtime: 'node',
  settings: { container: QWEN_CODE_CONTAINER.settings, content: QWEN_CODE_SETTINGS },
  containerRelay: MODEL_ROUTE.relay,
  modelDir: MODEL_ROUTE.dir,
  gatewayPaths: ['/v1/chat/completions'],
  auth: 'bearer',
  instructions: QWEN_CODE_INSTRUCTIONS,
  skills: QWEN_CODE_SKILLS,
  // Its policy's and hooks' denials (its command substitution block is off under --yolo).
  refusals: [
    /^Permission denied by hook for /u,
    /denied by policy\./u,
    /Command substitution using .* is not allowed for security reasons/u,
  ],
  env: qwenCodeEnv,
  versionArgv: relayed([NODE_RUNTIME.container, QWEN_CODE_CONTAINER.entry, '--version']),
  parseVersion: parseBareVersion,
  newSession: ({ model, extraArgs }) =>
    new QwenCodeSession(needModel('qwen-code', model), extraArgs),
};
