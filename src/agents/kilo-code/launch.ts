import { AGENT_KINDS } from '../../config/agent-kinds.js';
import {
  FAMILY_PROVIDER,
  familyArgv,
  familyEnv,
  type FamilyTurn,
  type OpenCodeFamily,
} from '../opencode-family/launch.js';

/** The npm package of the agent, installed on the host into the agents' cache. */
export const KILO_CODE_PACKAGE = AGENT_KINDS['kilo-code'].package;
/**
 * The version this adapter was verified with: the newest whose Linux platform packages are
 * published (7.8.1's are not, so npm installs its launcher with no binary).
 */
export const KILO_CODE_VERIFIED_VERSION = '7.7.7';
/** Its launcher under node_modules/.bin (a Node script that picks the platform's binary). */
export const KILO_CODE_BIN = 'kilo';
/** The model asked for when the eval set names none (the provider's model name). */
export const KILO_CODE_DEFAULT_MODEL = AGENT_KINDS['kilo-code'].defaultModel;

/**
 * The native (Bun-compiled, glibc) binary of the installed platform package, relative to its
 * folder: the one mounted. It needs nothing beside it (its sandbox helpers, tree-sitter grammars
 * and console assets are for features a run does not use: a turn was played with the binary
 * alone in its folder).
 */
export function kiloBinaryPath(arch: string = process.arch): string {
  return `node_modules/@kilocode/cli-linux-${arch === 'arm64' ? 'arm64' : 'x64'}/bin/kilo`;
}

export const KILO_CODE_CONTAINER = { binary: '/opt/evalrig/agent/kilo' } as const;

/**
 * Kilo Code in OpenCode's family, with its own names (read from its binary's flags): its whole
 * config in KILO_CONFIG_CONTENT; only evalrig's provider enabled (else it asks its own gateway
 * for its model list at start); no models.dev fetch, no autoupdate, no default plugins, no LSP
 * download, no telemetry (KILO_TELEMETRY_LEVEL: anything but "all" is off) and no session
 * ingest to its cloud.
 */
export const KILO_CODE_FAMILY: OpenCodeFamily = {
  binary: KILO_CODE_CONTAINER.binary,
  configVar: 'KILO_CONFIG_CONTENT',
  config: { enabled_providers: [FAMILY_PROVIDER] },
  env: {
    KILO_DISABLE_MODELS_FETCH: '1',
    KILO_DISABLE_AUTOUPDATE: '1',
    KILO_DISABLE_DEFAULT_PLUGINS: '1',
    KILO_DISABLE_LSP_DOWNLOAD: '1',
    KILO_TELEMETRY_LEVEL: 'off',
    KILO_DISABLE_SESSION_INGEST: '1',
  },
};

/** The agent's environment: HOME keeps its sessions (~/.local/share/kilo). */
export function kiloEnv(home: string, model: string): Record<string, string> {
  return familyEnv(KILO_CODE_FAMILY, home, model);
}

/** argv of one turn (see familyArgv): titled first, then `--session` the id it named. */
export function kiloArgv(turn: FamilyTurn): string[] {
  return familyArgv(KILO_CODE_FAMILY, turn);
}
