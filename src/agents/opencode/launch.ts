import { AGENT_KINDS } from '../../config/agent-kinds.js';
import { MODEL_ROUTE, PLACEHOLDER_API_KEY, relayed } from '../model-route.js';

/** The npm package of the agent, installed on the host into the agents' cache. */
export const OPENCODE_PACKAGE = AGENT_KINDS.opencode.package;
/** The version this adapter was verified with (transcripts in test/fixtures/transcripts). */
export const OPENCODE_VERIFIED_VERSION = '1.18.33';
export const OPENCODE_BIN = 'opencode';
/** The model asked for when the eval set names none (the provider's model name). */
export const OPENCODE_DEFAULT_MODEL = AGENT_KINDS.opencode.defaultModel;
/** The provider evalrig declares to OpenCode: an OpenAI-compatible one at the relay. */
const PROVIDER = 'evalrig';

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
 * The agent's environment: its whole config in OPENCODE_CONFIG_CONTENT (one provider,
 * Chat Completions at the relay, the placeholder key; no sharing, no autoupdate), no models
 * catalogue fetch, no default plugins. HOME keeps its sessions (~/.local/share/opencode).
 */
export function opencodeEnv(home: string, model: string): Record<string, string> {
  const config = {
    autoupdate: false,
    share: 'disabled',
    provider: {
      [PROVIDER]: {
        npm: '@ai-sdk/openai-compatible',
        name: PROVIDER,
        options: {
          baseURL: `http://127.0.0.1:${MODEL_ROUTE.relayPort}/v1`,
          apiKey: PLACEHOLDER_API_KEY,
        },
        models: { [model]: { name: model, tool_call: true } },
      },
    },
    model: `${PROVIDER}/${model}`,
  };
  return {
    HOME: home,
    OPENCODE_CONFIG_CONTENT: JSON.stringify(config),
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
  };
}

/**
 * argv of one turn: `run --auto` (approves what its rules do not deny); the first turn gives a
 * title (else it asks the model for one, a second call racing the turn's), later ones
 * `--session` the id OpenCode named in the first turn's stream.
 */
export function opencodeArgv(turn: {
  readonly prompt: string;
  readonly model: string;
  readonly sessionId: string | null;
  readonly extraArgs?: readonly string[];
}): string[] {
  return relayed([
    OPENCODE_CONTAINER.binary,
    ...['run', '--format', 'json', '--auto', '-m', `${PROVIDER}/${turn.model}`],
    ...(turn.sessionId === null ? ['--title', 'evalrig'] : ['--session', turn.sessionId]),
    ...(turn.extraArgs ?? []),
    '--',
    turn.prompt,
  ]);
}
