import { AGENT_KINDS } from '../../config/agent-kinds.js';
import {
  familyArgv,
  familyEnv,
  type FamilyTurn,
  type OpenCodeFamily,
} from '../opencode-family/launch.js';

/** The npm package of the agent, installed on the host into the agents' cache. */
export const OPENCODE_PACKAGE = AGENT_KINDS.opencode.package;
/** The version this adapter was verified with (transcripts in test/fixtures/transcripts). */
export const OPENCODE_VERIFIED_VERSION = '1.18.33';
export const OPENCODE_BIN = 'opencode';
/** The model asked for when the eval set names none (the provider's model name). */
export const OPENCODE_DEFAULT_MODEL = AGENT_KINDS.opencode.defaultModel;

/**
 * The native (Bun-compiled, glibc) binary in the installed package, relative to its folder:
 * the one mounted (the .bin link is a Node launcher). `-baseline` builds for CPUs without
 * AVX2 and musl builds exist beside it; this adapter mounts the default one.
 */
export function opencodeBinaryPath(arch: string = process.arch): string {
  return `node_modules/opencode-linux-${arch === 'arm64' ? 'arm64' : 'x64'}/bin/opencode`;
}

export const OPENCODE_CONTAINER = { binary: '/opt/evalrig/agent/opencode' } as const;

/**
 * OpenCode in its family: its whole config in OPENCODE_CONFIG_CONTENT (no sharing, no
 * autoupdate), no models catalogue fetch, no default plugins.
 */
export const OPENCODE_FAMILY: OpenCodeFamily = {
  binary: OPENCODE_CONTAINER.binary,
  configVar: 'OPENCODE_CONFIG_CONTENT',
  env: {
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
  },
};

/** The agent's environment: HOME keeps its sessions (~/.local/share/opencode). */
export function opencodeEnv(home: string, model: string): Record<string, string> {
  return familyEnv(OPENCODE_FAMILY, home, model);
}

/** argv of one turn (see familyArgv): titled first, then `--session` the id it named. */
export function opencodeArgv(turn: FamilyTurn): string[] {
  return familyArgv(OPENCODE_FAMILY, turn);
}
