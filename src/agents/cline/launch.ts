import { AGENT_KINDS } from '../../config/agent-kinds.js';
import { MODEL_ROUTE, PLACEHOLDER_API_KEY, relayed } from '../model-route.js';

/**
 * The npm package evalrig installs: Cline's linux-x64 platform package, which is the whole
 * agent (one Bun-compiled native binary). The `cline` package only picks a platform package
 * and links its binary.
 */
export const CLINE_PACKAGE = AGENT_KINDS.cline.package;
/** The version this adapter was verified with. */
export const CLINE_VERIFIED_VERSION = '3.0.65';
export const CLINE_BIN = 'cline';
/** The model asked for when the eval set names none. */
export const CLINE_DEFAULT_MODEL = AGENT_KINDS.cline.defaultModel;

/** The native binary in the installed package, relative to its folder: the one mounted. */
export function clineBinaryPath(): string {
  return 'node_modules/@cline/cli-linux-x64/bin/cline';
}

export const CLINE_CONTAINER = {
  binary: '/opt/evalrig/agent/cline',
  /** The ACP driver (stand-in/cline-acp), bundled by the build and mounted read-only. */
  driver: '/opt/evalrig/driver/cline-acp',
} as const;

/** The driver's bundle, as `npm run build` names it under dist/stand-in. */
export const CLINE_DRIVER_BUNDLE = 'cline-acp';

/**
 * The agent's environment. Its OpenAI-compatible provider (CLINE_PROVIDER) with the
 * placeholder key (the real one stays in the gateway); its sessions kept by the process itself
 * (CLINE_SESSION_BACKEND_MODE=local): otherwise each start leaves a hub daemon running behind
 * the turn. HOME keeps its settings and saved sessions (~/.cline).
 */
export function clineEnv(home: string): Record<string, string> {
  return {
    HOME: home,
    CLINE_PROVIDER: 'openai-compatible',
    CLINE_API_KEY: PLACEHOLDER_API_KEY,
    CLINE_SESSION_BACKEND_MODE: 'local',
  };
}

/**
 * argv of one turn, in the relay: the driver plays it through `cline --acp` (tools approved),
 * its provider at the relay with the model asked for; a later turn loads the session the
 * previous one named. The condition's agent_args go to the agent.
 */
export function clineArgv(turn: {
  readonly prompt: string;
  readonly model: string;
  /** The session to continue, or null on the first turn. */
  readonly resume: string | null;
  readonly extraArgs?: readonly string[];
}): string[] {
  return relayed([
    CLINE_CONTAINER.driver,
    CLINE_CONTAINER.binary,
    `http://127.0.0.1:${MODEL_ROUTE.relayPort}/v1`,
    turn.model,
    turn.resume ?? '-',
    '--',
    turn.prompt,
    ...(turn.extraArgs ?? []),
  ]);
}
