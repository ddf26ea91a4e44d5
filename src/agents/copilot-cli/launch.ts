import { AGENT_KINDS } from '../../config/agent-kinds.js';
import { MODEL_ROUTE, PLACEHOLDER_API_KEY, relayed } from '../model-route.js';

/** The npm package of the agent, installed on the host into the agents' cache. */
export const COPILOT_CLI_PACKAGE = AGENT_KINDS['copilot-cli'].package;
/** The version this adapter was verified with (transcripts in test/fixtures/transcripts). */
export const COPILOT_CLI_VERIFIED_VERSION = '1.0.102';
/** Its launcher under node_modules/.bin (a Node script that picks the platform's binary). */
export const COPILOT_CLI_BIN = 'copilot';
/** The model asked for when the eval set names none: one its own model catalog knows. */
export const COPILOT_CLI_DEFAULT_MODEL = AGENT_KINDS['copilot-cli'].defaultModel;

/**
 * The native (glibc) executable of the installed platform package, relative to its folder:
 * the one mounted (the .bin link is a Node launcher). It carries its JavaScript and native
 * addons as an embedded archive, unpacked on first start (see unpack.ts).
 */
export function copilotBinaryPath(arch: string = process.arch): string {
  return `node_modules/@github/copilot-linux-${arch === 'arm64' ? 'arm64' : 'x64'}/copilot`;
}

/** Where a run container sees the binary and the package cache unpacked from it (both read-only). */
export const COPILOT_CLI_CONTAINER = {
  binary: '/opt/evalrig/agent/copilot',
  pkgCache: '/opt/evalrig/agent/copilot-pkg',
} as const;

/**
 * The agent's environment. A provider base URL turns its own provider on ("bring your own
 * key"): no GitHub login, Chat Completions at the relay, the placeholder key (the real one
 * stays in the gateway). COPILOT_OFFLINE keeps it from GitHub's API at start. Its package cache
 * is the folder unpacked on the host, mounted read-only: it finds its files there and unpacks
 * nothing (were the folder missing, its unpack would fail on the read-only mount, loudly).
 * HOME keeps its sessions (~/.copilot/session-state).
 */
export function copilotEnv(home: string, model: string): Record<string, string> {
  return {
    HOME: home,
    COPILOT_PROVIDER_BASE_URL: `http://127.0.0.1:${MODEL_ROUTE.relayPort}/v1`,
    COPILOT_PROVIDER_TYPE: 'openai',
    COPILOT_PROVIDER_WIRE_API: 'completions',
    COPILOT_PROVIDER_API_KEY: PLACEHOLDER_API_KEY,
    COPILOT_MODEL: model,
    COPILOT_OFFLINE: 'true',
    COPILOT_AUTO_UPDATE: 'false',
    COPILOT_PKG_CACHE_HOME: COPILOT_CLI_CONTAINER.pkgCache,
  };
}

/**
 * argv of one turn, wrapped in the relay: `-p` (non-interactive), `--allow-all` (every tool,
 * path and URL, no approval asked), no update check, no client telemetry, its events as JSON
 * lines; the first turn names the session, later ones `--resume` it.
 */
export function copilotArgv(turn: {
  readonly prompt: string;
  readonly sessionId: string;
  readonly resume: boolean;
  readonly extraArgs?: readonly string[];
}): string[] {
  return relayed([
    COPILOT_CLI_CONTAINER.binary,
    ...['--allow-all', '--no-auto-update', '--disable-client-telemetry'],
    ...['--output-format', 'json'],
    ...(turn.resume ? ['--resume', turn.sessionId] : ['--session-id', turn.sessionId]),
    ...(turn.extraArgs ?? []),
    ...['-p', turn.prompt],
  ]);
}

/** Its version from `copilot --version` ("GitHub Copilot CLI 1.0.102."), or null. */
export function parseCopilotVersion(stdout: string): string | null {
  const m = /^GitHub Copilot CLI (\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)\.?\s*$/mu.exec(stdout);
  return m ? m[1]! : null;
}
