import { AGENT_KINDS } from '../../config/agent-kinds.js';
import { MODEL_ROUTE, PLACEHOLDER_API_KEY, relayed } from '../model-route.js';
import { PS_SHIM } from './ps-shim.js';

/**
 * The npm package evalrig installs: Factory's linux-x64 platform package, which is the whole
 * agent (one Bun-compiled native binary). The `@factory/cli` launcher only picks a platform
 * package and links its binary; the registry held no launcher of the binary's own version.
 */
export const FACTORY_DROID_PACKAGE = AGENT_KINDS['factory-droid'].package;
/** The version this adapter was verified with (transcripts in test/fixtures/transcripts). */
export const FACTORY_DROID_VERIFIED_VERSION = '0.225.2';
export const FACTORY_DROID_BIN = 'droid';
/** The model asked for when the eval set names none (its custom model's `model`). */
export const FACTORY_DROID_DEFAULT_MODEL = AGENT_KINDS['factory-droid'].defaultModel;
/** The id `-m` picks: the one custom model evalrig declares in its settings. */
export const FACTORY_DROID_MODEL_ID = 'custom:evalrig';

/** The native (glibc) binary in the installed package, relative to its folder: the one mounted. */
export function factoryDroidBinaryPath(): string {
  return 'node_modules/@factory/cli-linux-x64/bin/droid';
}

export const FACTORY_DROID_CONTAINER = { binary: '/opt/evalrig/agent/droid' } as const;

/**
 * Its settings (`~/.factory/settings.json`): one custom model (its "bring your own key"), Chat
 * Completions (`generic-chat-completion-api`) at the relay with the placeholder key (the real
 * one stays in the gateway). The model is the eval set's: the file is written per turn (see
 * {@link factoryDroidArgv}), as no environment variable or flag names a custom model's model
 * (its settings expand variables in `apiKey` alone).
 */
export function factoryDroidSettings(model: string): string {
  return JSON.stringify({
    customModels: [
      {
        id: FACTORY_DROID_MODEL_ID,
        model,
        displayName: model,
        provider: 'generic-chat-completion-api',
        baseUrl: `http://127.0.0.1:${MODEL_ROUTE.relayPort}/v1`,
        apiKey: PLACEHOLDER_API_KEY,
      },
    ],
  });
}

/**
 * The agent's environment. Airgap Mode (`FACTORY_AIRGAP_ENABLED`, read from its bundle) keeps
 * it from its vendor's API and telemetry: without it, each start asks for feature flags, org
 * settings and billing and a turn's end waits about 5 s on a telemetry flush that cannot leave.
 * Its own updater is off too. HOME keeps its settings and sessions (~/.factory).
 */
export function factoryDroidEnv(home: string): Record<string, string> {
  return {
    HOME: home,
    FACTORY_AIRGAP_ENABLED: '1',
    FACTORY_DROID_AUTO_UPDATE_ENABLED: 'false',
  };
}

/**
 * What each turn runs first, in POSIX sh (every run image has it): its settings file ($1) under
 * HOME, and where the image has no `ps` the stand-in one ($2, see ps-shim.ts) on PATH after the
 * image's folders; then the agent.
 */
const TURN_SCRIPT = [
  'mkdir -p "$HOME/.factory" && printf "%s\\n" "$1" > "$HOME/.factory/settings.json" || exit 1',
  'if ! command -v ps >/dev/null 2>&1; then',
  '  bin="$HOME/.evalrig/bin"',
  '  mkdir -p "$bin" && printf "%s\\n" "$2" > "$bin/ps" && chmod 755 "$bin/ps" || exit 1',
  '  PATH="$PATH:$bin"',
  '  export PATH',
  'fi',
  'shift 2',
  'exec "$@"',
].join('\n');

/**
 * argv of one turn, in the relay: `exec --auto high` (every command but its deny list runs
 * without approval), the custom model, its events as JSON lines; a later turn `--fork`s the
 * session the previous turn's stream named (its `-s` first asks its vendor's API for the
 * session and fails offline; a fork reads the local one and carries the whole conversation).
 */
export function factoryDroidArgv(turn: {
  readonly prompt: string;
  readonly model: string;
  /** The session to continue, or null on the first turn. */
  readonly forkOf: string | null;
  readonly extraArgs?: readonly string[];
}): string[] {
  return relayed([
    '/bin/sh',
    '-c',
    TURN_SCRIPT,
    'factory-droid',
    factoryDroidSettings(turn.model),
    PS_SHIM,
    FACTORY_DROID_CONTAINER.binary,
    ...['exec', '--auto', 'high', '-m', FACTORY_DROID_MODEL_ID, '-o', 'stream-json'],
    ...(turn.forkOf === null ? [] : ['--fork', turn.forkOf]),
    ...(turn.extraArgs ?? []),
    '--',
    turn.prompt,
  ]);
}
