import { GATEWAY_SOCKET_NAME } from '../gateway/index.js';
import type { SandboxSpec } from '../sandbox/index.js';
import {
  CLAUDE_CODE_BIN,
  CLAUDE_CODE_CONTAINER,
  CLAUDE_CODE_PACKAGE,
  claudeCodeEnv,
} from './claude-code.js';
import {
  CODEX_BIN,
  CODEX_CONTAINER,
  CODEX_PACKAGE,
  codexBinaryPath,
  codexEnv,
  parseCodexVersion,
} from './codex.js';
import { CodexSession } from './codex-session.js';
import type { AgentInstall } from './install.js';
import {
  CLAUDE_CODE_INSTRUCTIONS,
  CODEX_INSTRUCTIONS,
  type InstructionRule,
} from './instructions.js';
import { ClaudeCodeSession, parseVersionOutput } from './session.js';
import type { TurnSession } from './turn.js';

/** The agents evalrig installs and plays itself (a `command` agent is the eval set's own). */
export type AdapterType = 'claude-code' | 'codex';

/** A file an adapter needs in the run's container: mounted read-only, or copied into an image. */
export interface AgentFile {
  readonly host: string;
  readonly container: string;
}

/**
 * What differs between the adapters, in one place: the package and where its executable is,
 * where a container sees it, the model API paths its gateway forwards and how the key is sent
 * upstream, its environment, the argv that asks its version, and its per-run session.
 *
 * ```ts
 * const adapter = AGENT_ADAPTERS[evalSet.agent.type];
 * const install = await ensureAgentInstalled(adapter.install(version));
 * const session = adapter.newSession({ model, extraArgs });
 * await playAgentTurn(container, session, adapter.env(home), turn);
 * ```
 */
export interface AgentAdapter {
  readonly type: AdapterType;
  readonly package: string;
  /** ensureAgentInstalled's options for `version`. */
  install(version: string): {
    readonly package: string;
    readonly version: string;
    readonly bin: string;
    readonly binaryPath?: string;
  };
  /** Where the container sees the agent's executable. */
  readonly containerBinary: string;
  /** Where the container sees the model relay (Codex), or undefined. */
  readonly containerRelay?: string;
  /** The gateway's one folder in the container (its socket inside). */
  readonly modelDir: string;
  /** The only model API paths the run's gateway forwards (all POST). */
  readonly gatewayPaths: readonly string[];
  /** How the gateway sends the real key upstream. */
  readonly auth: 'x-api-key' | 'bearer';
  /** Which staged skills and instruction files it loads (the treatment check's expectations). */
  readonly instructions: InstructionRule;
  /** The agent's own environment for a turn (gateway, placeholder key, its home). */
  env(home: string): Record<string, string>;
  /** argv that makes it answer its version, as a run would start it. */
  readonly versionArgv: readonly string[];
  parseVersion(stdout: string): string | null;
  /** One run's session: the first turn starts it, later ones resume it. */
  newSession(options: {
    readonly model?: string;
    readonly extraArgs: readonly string[];
  }): TurnSession;
}

export const AGENT_ADAPTERS: Readonly<Record<AdapterType, AgentAdapter>> = {
  'claude-code': {
    type: 'claude-code',
    package: CLAUDE_CODE_PACKAGE,
    install: (version) => ({ package: CLAUDE_CODE_PACKAGE, version, bin: CLAUDE_CODE_BIN }),
    containerBinary: CLAUDE_CODE_CONTAINER.binary,
    modelDir: CLAUDE_CODE_CONTAINER.modelDir,
    gatewayPaths: ['/v1/messages'],
    auth: 'x-api-key',
    instructions: CLAUDE_CODE_INSTRUCTIONS,
    env: claudeCodeEnv,
    versionArgv: [CLAUDE_CODE_CONTAINER.binary, '--version'],
    parseVersion: parseVersionOutput,
    newSession: ({ extraArgs }) => new ClaudeCodeSession(undefined, extraArgs),
  },
  codex: {
    type: 'codex',
    package: CODEX_PACKAGE,
    install: (version) => ({
      package: CODEX_PACKAGE,
      version,
      bin: CODEX_BIN,
      binaryPath: codexBinaryPath(),
    }),
    containerBinary: CODEX_CONTAINER.binary,
    containerRelay: CODEX_CONTAINER.relay,
    modelDir: CODEX_CONTAINER.modelDir,
    gatewayPaths: ['/v1/responses'],
    auth: 'bearer',
    instructions: CODEX_INSTRUCTIONS,
    env: codexEnv,
    // Through the relay, as every turn starts: a preflight also shows that it runs there (node).
    versionArgv: [
      CODEX_CONTAINER.relay,
      String(CODEX_CONTAINER.relayPort),
      CODEX_CONTAINER.modelSocket,
      '--',
      CODEX_CONTAINER.binary,
      '--version',
    ],
    parseVersion: parseCodexVersion,
    newSession: ({ model, extraArgs }) => {
      if (model === undefined) throw new Error('a codex session needs its model name');
      return new CodexSession(model, extraArgs);
    },
  },
};

/** The files of `adapter` a run needs in its container: its binary, and the relay if any. */
export function agentFiles(
  adapter: AgentAdapter,
  install: AgentInstall,
  relay: string | undefined,
): AgentFile[] {
  const files: AgentFile[] = [{ host: install.binary, container: adapter.containerBinary }];
  if (adapter.containerRelay !== undefined) {
    if (relay === undefined) throw new Error(`the ${adapter.type} adapter needs its model relay`);
    files.push({ host: relay, container: adapter.containerRelay });
  }
  return files;
}

/**
 * What a run's sandbox shares of the agent: its files (none when they are built into its
 * image), and the gateway's folder with its one socket. Mounted read-only where the sandbox
 * mounts host folders, copied in and tunnelled otherwise.
 */
export function adapterShares(
  adapter: AgentAdapter,
  files: readonly AgentFile[],
  gatewayDir: string,
): Required<Pick<SandboxSpec, 'files' | 'sockets'>> {
  return {
    files: files.map((f) => ({ host: f.host, container: f.container })),
    sockets: [{ host: gatewayDir, container: adapter.modelDir, names: [GATEWAY_SOCKET_NAME] }],
  };
}
