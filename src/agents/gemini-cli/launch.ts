import path from 'node:path';
import { AGENT_KINDS } from '../../config/agent-kinds.js';
import type { AgentInstall } from '../install.js';
import { MODEL_ROUTE, PLACEHOLDER_API_KEY, relayed } from '../model-route.js';
import { NODE_RUNTIME } from '../support.js';

/** The npm package of the agent, installed on the host into the agents' cache. */
export const GEMINI_CLI_PACKAGE = AGENT_KINDS['gemini-cli'].package;
/** The version this adapter was verified with (transcripts in test/fixtures/transcripts). */
export const GEMINI_CLI_VERIFIED_VERSION = '0.61.0';
/** Its executable under node_modules/.bin (bundle/gemini.js of a Node bundle). */
export const GEMINI_CLI_BIN = 'gemini';
/** The model asked for when the eval set names none. */
export const GEMINI_CLI_DEFAULT_MODEL = AGENT_KINDS['gemini-cli'].defaultModel;

/** Where a run container sees the package folder, its entry, and the settings file. */
export const GEMINI_CLI_CONTAINER = {
  package: '/opt/evalrig/agent/gemini-cli',
  entry: '/opt/evalrig/agent/gemini-cli/bundle/gemini.js',
  settings: '/opt/evalrig/agent-settings/gemini-cli.json',
} as const;

/** The package folder to mount: the .bin link resolves to `<package>/bundle/gemini.js`. */
export function geminiPackageDir(install: AgentInstall): string {
  return path.dirname(path.dirname(install.binary));
}

/**
 * Its system settings (they override the user's and the project's): the API-key auth type
 * (with a base URL and none, 0.61 picks "gateway", which `-p` refuses), no usage statistics,
 * telemetry, update checks or ripgrep download (each would reach out), no next-speaker check
 * or loop detection (each an extra model call of its own). Folder trust is off so the
 * project's skills load and `--yolo` is not downgraded.
 */
export const GEMINI_CLI_SETTINGS = `${JSON.stringify({
  security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
  general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
  model: { skipNextSpeakerCheck: true, disableLoopDetection: true },
  tools: { useRipgrep: false },
})}\n`;

/**
 * The agent's environment: the Gemini API at the relay (which pipes to the gateway's socket),
 * the placeholder key (the real one stays on the host), its settings, the workspace trusted.
 * HOME must be writable and kept: sessions live under ~/.gemini.
 */
export function geminiCliEnv(home: string): Record<string, string> {
  return {
    HOME: home,
    GEMINI_API_KEY: PLACEHOLDER_API_KEY,
    GOOGLE_GEMINI_BASE_URL: `http://127.0.0.1:${MODEL_ROUTE.relayPort}`,
    GEMINI_CLI_SYSTEM_SETTINGS_PATH: GEMINI_CLI_CONTAINER.settings,
    GEMINI_CLI_TRUST_WORKSPACE: 'true',
  };
}

/**
 * argv of one turn: `-p` (non-interactive), `--yolo` (its approvals off: the container is the
 * sandbox), the stream as JSON lines; the first turn names the session evalrig chose, later
 * ones `--resume` it.
 */
export function geminiCliArgv(turn: {
  readonly prompt: string;
  readonly model: string;
  readonly sessionId: string;
  readonly resume: boolean;
  readonly extraArgs?: readonly string[];
}): string[] {
  return relayed([
    NODE_RUNTIME.container,
    GEMINI_CLI_CONTAINER.entry,
    ...['-m', turn.model],
    ...(turn.resume ? ['--resume', turn.sessionId] : ['--session-id', turn.sessionId]),
    ...['--output-format', 'stream-json', '--yolo'],
    ...(turn.extraArgs ?? []),
    ...['-p', turn.prompt],
  ]);
}
