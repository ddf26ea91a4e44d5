import path from 'node:path';
import { AGENT_KINDS } from '../../config/agent-kinds.js';
import type { AgentInstall } from '../install.js';
import { MODEL_ROUTE, PLACEHOLDER_API_KEY, relayed } from '../model-route.js';
import { NODE_RUNTIME } from '../support.js';

/** The npm package of the agent, installed on the host into the agents' cache. */
export const QWEN_CODE_PACKAGE = AGENT_KINDS['qwen-code'].package;
/**
 * The version this adapter was verified with: 0.21 and later need Node 22; 0.15.10 is the
 * line published for Node 20, the runtime evalrig mounts.
 */
export const QWEN_CODE_VERIFIED_VERSION = '0.15.10';
/** Its executable under node_modules/.bin (cli.js of a Node bundle). */
export const QWEN_CODE_BIN = 'qwen';
/** The model asked for when the eval set names none. */
export const QWEN_CODE_DEFAULT_MODEL = AGENT_KINDS['qwen-code'].defaultModel;

/** Where a run container sees the package folder, its entry, and the settings file. */
export const QWEN_CODE_CONTAINER = {
  package: '/opt/evalrig/agent/qwen-code',
  entry: '/opt/evalrig/agent/qwen-code/cli.js',
  settings: '/opt/evalrig/agent-settings/qwen-code.json',
} as const;

/** The package folder to mount: the .bin link resolves to `<package>/cli.js`. */
export function qwenPackageDir(install: AgentInstall): string {
  return path.dirname(install.binary);
}

/**
 * Its system settings (they override the user's and the project's): the OpenAI-compatible
 * auth, no usage statistics, telemetry or update checks (each would reach out), and no managed
 * auto-memory (else a turn may end with an extraction call of its own, a model call the
 * script did not plan). Never `--bare`: it skips QWEN.md, which conditions vary.
 */
export const QWEN_CODE_SETTINGS = `${JSON.stringify({
  security: { auth: { selectedType: 'openai' } },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
  general: { disableAutoUpdate: true, disableUpdateNag: true },
  memory: { enableManagedAutoMemory: false },
})}\n`;

/** Chat Completions at the relay, the placeholder key, its settings. HOME keeps ~/.qwen (sessions). */
export function qwenCodeEnv(home: string): Record<string, string> {
  return {
    HOME: home,
    OPENAI_API_KEY: PLACEHOLDER_API_KEY,
    OPENAI_BASE_URL: `http://127.0.0.1:${MODEL_ROUTE.relayPort}/v1`,
    QWEN_CODE_SYSTEM_SETTINGS_PATH: QWEN_CODE_CONTAINER.settings,
  };
}

/**
 * argv of one turn: `-p` (non-interactive), `--yolo` (approvals off), the stream as JSON
 * lines; the first turn names the session, later ones `--resume` it.
 */
export function qwenCodeArgv(turn: {
  readonly prompt: string;
  readonly model: string;
  readonly sessionId: string;
  readonly resume: boolean;
  readonly extraArgs?: readonly string[];
}): string[] {
  return relayed([
    NODE_RUNTIME.container,
    QWEN_CODE_CONTAINER.entry,
    ...['--auth-type', 'openai', '-m', turn.model],
    ...(turn.resume ? ['--resume', turn.sessionId] : ['--session-id', turn.sessionId]),
    ...['--output-format', 'stream-json', '--yolo'],
    ...(turn.extraArgs ?? []),
    ...['-p', turn.prompt],
  ]);
}
