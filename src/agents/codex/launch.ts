import { AGENT_KINDS } from '../../config/agent-kinds.js';
import type { Bind } from '../../runtime/index.js';
import { MODEL_ROUTE, PLACEHOLDER_API_KEY, relayed } from '../model-route.js';

/** The npm package of the agent, installed on the host into the agents' cache. */
export const CODEX_PACKAGE = AGENT_KINDS.codex.package;
/** The version these adapters were verified with (transcripts in test/fixtures/transcripts). */
export const CODEX_VERIFIED_VERSION = '0.171.0';
/** Its launcher under node_modules/.bin (a Node script that picks the platform's binary). */
export const CODEX_BIN = 'codex';

/**
 * The static (musl) binary inside the installed package, relative to its folder: the one
 * mounted, so that the container needs no Node to start the agent itself. Checked for x64 with
 * 0.171.0; the arm64 path follows the same layout (not verified here).
 */
export function codexBinaryPath(arch: string = process.arch): string {
  const [pkg, triple] =
    arch === 'arm64'
      ? ['codex-linux-arm64', 'aarch64-unknown-linux-musl']
      : ['codex-linux-x64', 'x86_64-unknown-linux-musl'];
  return `node_modules/@openai/${pkg}/vendor/${triple}/bin/codex`;
}

/** Where a run container sees the binary, the relay (both read-only) and the gateway's folder. */
export const CODEX_CONTAINER = {
  binary: '/opt/evalrig/agent/codex',
  relay: MODEL_ROUTE.relay,
  modelDir: MODEL_ROUTE.dir,
  modelSocket: MODEL_ROUTE.socket,
  relayPort: MODEL_ROUTE.relayPort,
} as const;

/** The model provider evalrig declares to Codex (it ignores OPENAI_BASE_URL). */
const PROVIDER = 'evalrig';

/** The mounts of a run: the binary, the relay bundle, and the gateway's socket folder. */
export function codexBinds(binary: string, relay: string, gatewayDir: string): Bind[] {
  return [
    { host: binary, container: CODEX_CONTAINER.binary, readOnly: true },
    { host: relay, container: CODEX_CONTAINER.relay, readOnly: true },
    { host: gatewayDir, container: CODEX_CONTAINER.modelDir, readOnly: true },
  ];
}

/**
 * The agent's environment: the placeholder key (the real one stays in the gateway on the
 * host) and CODEX_HOME, where it keeps its sessions (`exec resume` reads them back). Codex
 * refuses a CODEX_HOME that does not exist: it is the run's HOME, which the run creates.
 */
export function codexEnv(home: string): Record<string, string> {
  return { HOME: home, CODEX_HOME: home, OPENAI_API_KEY: PLACEHOLDER_API_KEY };
}

/**
 * The provider as `-c` overrides (parsed as TOML by Codex, like a `[model_providers.evalrig]`
 * block of config.toml): the Responses API at the relay, which pipes to the gateway socket.
 */
export function codexProviderArgs(model: string): string[] {
  const base = `http://127.0.0.1:${CODEX_CONTAINER.relayPort}/v1`;
  return [
    '-c',
    `model_provider=${JSON.stringify(PROVIDER)}`,
    '-c',
    `model_providers.${PROVIDER}={name=${JSON.stringify(PROVIDER)},base_url=${JSON.stringify(base)},env_key="OPENAI_API_KEY",wire_api="responses"}`,
    '-c',
    `model=${JSON.stringify(model)}`,
  ];
}

/**
 * argv of one turn, wrapped in the relay: the first starts a thread (Codex chooses its id and
 * reports it in `thread.started`), later ones resume it by that id. Its own sandbox cannot work
 * in an unprivileged container; the container is the sandbox, hence the bypass flag.
 */
export function codexArgv(turn: {
  readonly prompt: string;
  readonly model: string;
  /** The thread to resume, or null for the first turn. */
  readonly threadId: string | null;
  readonly extraArgs?: readonly string[];
}): string[] {
  const common = [
    ...codexProviderArgs(turn.model),
    '--json',
    '--dangerously-bypass-approvals-and-sandbox',
    '--skip-git-repo-check',
    ...(turn.extraArgs ?? []),
  ];
  const exec =
    turn.threadId === null
      ? ['exec', ...common, '--', turn.prompt]
      : ['exec', 'resume', ...common, '--', turn.threadId, turn.prompt];
  return relayed([CODEX_CONTAINER.binary, ...exec]);
}

/** The version `codex --version` answers ("codex-cli 0.171.0"), or null. */
export function parseCodexVersion(stdout: string): string | null {
  const m = /^codex-cli (\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)\s*$/.exec(stdout.trim());
  return m ? m[1]! : null;
}
