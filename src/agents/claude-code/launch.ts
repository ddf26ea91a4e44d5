import { AGENT_KINDS } from '../../config/agent-kinds.js';
import type { Bind } from '../../runtime/index.js';
import { MODEL_ROUTE, PLACEHOLDER_API_KEY } from '../model-route.js';

/** The npm package of the agent, installed on the host into the agents' cache. */
export const CLAUDE_CODE_PACKAGE = AGENT_KINDS['claude-code'].package;
/** The version these adapters were verified with (transcripts in test/fixtures/transcripts). */
export const CLAUDE_CODE_VERIFIED_VERSION = '2.1.332';
/** Its executable under node_modules/.bin (a native, glibc binary: no Node at run time). */
export const CLAUDE_CODE_BIN = 'claude';

/** Where a run container sees the binary (mounted read-only) and the gateway's folder. */
export const CLAUDE_CODE_CONTAINER = {
  binary: '/opt/evalrig/agent/claude',
  modelDir: MODEL_ROUTE.dir,
  modelSocket: MODEL_ROUTE.socket,
} as const;

/** The mounts of a run: the binary, and the gateway's socket folder (both read-only). */
export function claudeCodeBinds(binary: string, gatewayDir: string): Bind[] {
  return [
    { host: binary, container: CLAUDE_CODE_CONTAINER.binary, readOnly: true },
    { host: gatewayDir, container: CLAUDE_CODE_CONTAINER.modelDir, readOnly: true },
  ];
}

/**
 * The agent's environment: its model calls go to the gateway's socket (the host adds the key),
 * and `CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC` stops its telemetry, update checks and other
 * side traffic, which the gateway would refuse anyway. HOME must be writable: the agent keeps
 * its session there (`--resume` reads it back).
 *
 * Checked with 2.1.332: `ANTHROPIC_UNIX_SOCKET` alone is not enough, the binary then hangs
 * without reaching the socket; with `ANTHROPIC_BASE_URL=http://localhost` beside it, every
 * model call goes through the socket. `--dangerously-skip-permissions` is refused as root:
 * turns run as the image's uid 1000.
 */
export function claudeCodeEnv(home: string): Record<string, string> {
  return {
    HOME: home,
    ANTHROPIC_UNIX_SOCKET: CLAUDE_CODE_CONTAINER.modelSocket,
    ANTHROPIC_BASE_URL: 'http://localhost',
    ANTHROPIC_API_KEY: PLACEHOLDER_API_KEY,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  };
}

/**
 * argv of one turn: the first names the session evalrig chose, later ones resume it. The
 * stream (one JSON object a line) is what {@link parseClaudeCodeStream} reads. Never `--bare`:
 * it hides the project's skills, which are what conditions vary.
 */
export function claudeCodeArgv(turn: {
  readonly prompt: string;
  readonly sessionId: string;
  readonly resume: boolean;
  readonly extraArgs?: readonly string[];
}): string[] {
  return [
    CLAUDE_CODE_CONTAINER.binary,
    '-p',
    turn.prompt,
    turn.resume ? '--resume' : '--session-id',
    turn.sessionId,
    '--output-format',
    'stream-json',
    '--verbose',
    '--dangerously-skip-permissions',
    ...(turn.extraArgs ?? []),
  ];
}
