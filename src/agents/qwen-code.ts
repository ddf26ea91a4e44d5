import path from 'node:path';
import { newSessionId, PLACEHOLDER_API_KEY } from './claude-code.js';
import { CODEX_CONTAINER } from './codex.js';
import { relayed } from './gemini-cli.js';
import type { AgentInstall } from './install.js';
import { parseQwenStream, ZERO_TOKENS } from './qwen-transcript.js';
import { NODE_RUNTIME } from './support.js';
import type { TurnSummary } from './transcript.js';

/** The npm package of the agent, installed on the host into the agents' cache. */
export const QWEN_CODE_PACKAGE = '@qwen-code/qwen-code';
/**
 * The version this adapter was verified with: 0.21 and later need Node 22; 0.15.10 is the
 * line published for Node 20, the runtime evalrig mounts.
 */
export const QWEN_CODE_VERIFIED_VERSION = '0.15.10';
/** Its executable under node_modules/.bin (cli.js of a Node bundle). */
export const QWEN_CODE_BIN = 'qwen';
/** The model asked for when the eval set names none. */
export const QWEN_CODE_DEFAULT_MODEL = 'qwen3-coder-plus';

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
    OPENAI_BASE_URL: `http://127.0.0.1:${CODEX_CONTAINER.relayPort}/v1`,
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

/** One run's Qwen Code session; its running usage carried so each turn holds its own tokens. */
export class QwenCodeSession {
  private turns = 0;
  private running = ZERO_TOKENS;

  constructor(
    readonly model: string,
    private readonly extraArgs: readonly string[] = [],
    readonly id: string = newSessionId(),
  ) {}

  argv(prompt: string): string[] {
    return qwenCodeArgv({
      prompt,
      model: this.model,
      sessionId: this.id,
      resume: this.turns > 0,
      extraArgs: this.extraArgs,
    });
  }

  take(stdout: string): TurnSummary {
    this.turns++;
    const { summary, running } = parseQwenStream(stdout, this.running);
    this.running = running;
    return summary;
  }
}
