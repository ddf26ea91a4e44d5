import { GATEWAY_SOCKET_NAME } from '../gateway/index.js';
import type { WireAuth } from '../flight/index.js';
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
import {
  GEMINI_CLI_BIN,
  GEMINI_CLI_CONTAINER,
  GEMINI_CLI_PACKAGE,
  GEMINI_CLI_SETTINGS,
  GeminiCliSession,
  geminiCliEnv,
  geminiPackageDir,
  parseBareVersion,
  relayed,
} from './gemini-cli.js';
import type { AgentInstall } from './install.js';
import {
  OPENCODE_BIN,
  OPENCODE_CONTAINER,
  OPENCODE_DEFAULT_MODEL,
  OPENCODE_PACKAGE,
  OpenCodeSession,
  opencodeBinaryPath,
  opencodeEnv,
} from './opencode.js';
import {
  QWEN_CODE_BIN,
  QWEN_CODE_CONTAINER,
  QWEN_CODE_PACKAGE,
  QWEN_CODE_SETTINGS,
  QwenCodeSession,
  qwenCodeEnv,
  qwenPackageDir,
} from './qwen-code.js';
import { NODE_RUNTIME } from './support.js';
import {
  CLAUDE_CODE_INSTRUCTIONS,
  CODEX_INSTRUCTIONS,
  GEMINI_CLI_INSTRUCTIONS,
  OPENCODE_INSTRUCTIONS,
  QWEN_CODE_INSTRUCTIONS,
  type InstructionRule,
} from './instructions.js';
import { ClaudeCodeSession, parseVersionOutput } from './session.js';
import {
  CLAUDE_CODE_SKILLS,
  CODEX_SKILLS,
  GEMINI_CLI_SKILLS,
  OPENCODE_SKILLS,
  QWEN_CODE_SKILLS,
  type SkillListing,
} from './skill-listing.js';
import type { TurnSession } from './turn.js';

/** The agents evalrig installs and plays itself (a `command` agent is the eval set's own). */
export type AdapterType = 'claude-code' | 'codex' | 'gemini-cli' | 'opencode' | 'qwen-code';

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
  /** Where the container sees the agent's executable (its package folder for a Node agent). */
  readonly containerBinary: string;
  /**
   * The host path mounted at `containerBinary` when it is not the install's binary: a Node
   * agent's package folder (its bundle has chunks, vendored tools and locales beside it).
   */
  packageDir?(install: AgentInstall): string;
  /** The agent runs on the Node runtime evalrig installs (mounted at NODE_RUNTIME.container). */
  readonly runtime?: 'node';
  /** A system settings file the agent is pointed at (written to the cache, mounted read-only). */
  readonly settings?: { readonly container: string; readonly content: string };
  /** Where the container sees the model relay (Codex), or undefined. */
  readonly containerRelay?: string;
  /** The gateway's one folder in the container (its socket inside). */
  readonly modelDir: string;
  /** The only model API paths the run's gateway forwards (all POST). */
  readonly gatewayPaths: readonly string[];
  /** How the gateway sends the real key upstream (its API's own header). */
  readonly auth: WireAuth;
  /** Which staged skills and instruction files it loads (the treatment check's expectations). */
  readonly instructions: InstructionRule;
  /** How it lists a skill to its model and how the model takes one up (the treatment check's needles). */
  readonly skills: SkillListing;
  /** How its tool results read when it refused to run a call (its own policy), as it writes them. */
  readonly refusals: readonly RegExp[];
  /** The agent's own environment for a turn (gateway, placeholder key, its home, its model). */
  env(home: string, model?: string): Record<string, string>;
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
    skills: CLAUDE_CODE_SKILLS,
    // Its permission denials (none happen under --dangerously-skip-permissions but a hook's).
    refusals: [
      /^Permission to use \S+ (?:with command .* )?has been denied/u,
      /requested permissions to use \S+, but you haven't granted it/u,
      /^The user doesn't want to proceed with this tool use/u,
    ],
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
    skills: CODEX_SKILLS,
    refusals: [/^exec command rejected by user/u, /^patch rejected by user/u],
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
  'gemini-cli': {
    type: 'gemini-cli',
    package: GEMINI_CLI_PACKAGE,
    install: (version) => ({ package: GEMINI_CLI_PACKAGE, version, bin: GEMINI_CLI_BIN }),
    containerBinary: GEMINI_CLI_CONTAINER.package,
    packageDir: geminiPackageDir,
    runtime: 'node',
    settings: { container: GEMINI_CLI_CONTAINER.settings, content: GEMINI_CLI_SETTINGS },
    containerRelay: CODEX_CONTAINER.relay,
    modelDir: CODEX_CONTAINER.modelDir,
    gatewayPaths: [
      '/v1beta/models/{model}:streamGenerateContent',
      '/v1beta/models/{model}:generateContent',
    ],
    auth: 'x-goog-api-key',
    instructions: GEMINI_CLI_INSTRUCTIONS,
    skills: GEMINI_CLI_SKILLS,
    // Seen: a command holding `$(…)` is never run (0.61.0); its policy engine's denials.
    refusals: [
      /^Command injection detected: /u,
      /^Blocked: command substitution/u,
      /^Tool execution denied by policy\./u,
    ],
    env: geminiCliEnv,
    versionArgv: relayed([NODE_RUNTIME.container, GEMINI_CLI_CONTAINER.entry, '--version']),
    parseVersion: parseBareVersion,
    newSession: ({ model, extraArgs }) =>
      new GeminiCliSession(needModel('gemini-cli', model), extraArgs),
  },
  opencode: {
    type: 'opencode',
    package: OPENCODE_PACKAGE,
    install: (version) => ({
      package: OPENCODE_PACKAGE,
      version,
      bin: OPENCODE_BIN,
      binaryPath: opencodeBinaryPath(),
    }),
    containerBinary: OPENCODE_CONTAINER.binary,
    containerRelay: CODEX_CONTAINER.relay,
    modelDir: CODEX_CONTAINER.modelDir,
    gatewayPaths: ['/v1/chat/completions'],
    auth: 'bearer',
    instructions: OPENCODE_INSTRUCTIONS,
    skills: OPENCODE_SKILLS,
    refusals: [/^The user rejected permission to use this specific tool call/u],
    env: (home, model) => opencodeEnv(home, model ?? OPENCODE_DEFAULT_MODEL),
    versionArgv: relayed([OPENCODE_CONTAINER.binary, '--version']),
    parseVersion: parseBareVersion,
    newSession: ({ model, extraArgs }) =>
      new OpenCodeSession(needModel('opencode', model), extraArgs),
  },
  'qwen-code': {
    type: 'qwen-code',
    package: QWEN_CODE_PACKAGE,
    install: (version) => ({ package: QWEN_CODE_PACKAGE, version, bin: QWEN_CODE_BIN }),
    containerBinary: QWEN_CODE_CONTAINER.package,
    packageDir: qwenPackageDir,
    runtime: 'node',
    settings: { container: QWEN_CODE_CONTAINER.settings, content: QWEN_CODE_SETTINGS },
    containerRelay: CODEX_CONTAINER.relay,
    modelDir: CODEX_CONTAINER.modelDir,
    gatewayPaths: ['/v1/chat/completions'],
    auth: 'bearer',
    instructions: QWEN_CODE_INSTRUCTIONS,
    skills: QWEN_CODE_SKILLS,
    refusals: [
      /^Permission denied by hook for /u,
      /denied by policy\./u,
      /Command substitution using .* is not allowed for security reasons/u,
    ],
    env: qwenCodeEnv,
    versionArgv: relayed([NODE_RUNTIME.container, QWEN_CODE_CONTAINER.entry, '--version']),
    parseVersion: parseBareVersion,
    newSession: ({ model, extraArgs }) =>
      new QwenCodeSession(needModel('qwen-code', model), extraArgs),
  },
};

function needModel(type: AdapterType, model: string | undefined): string {
  if (model === undefined) throw new Error(`a ${type} session needs its model name`);
  return model;
}

/** What a run mounts beside the agent, found on the host: the Node runtime and its settings file. */
export interface AgentSupport {
  readonly node?: string;
  readonly settings?: string;
}

/** The files of `adapter` a run needs in its container: its binary (or package folder), the relay, the Node runtime and settings if any. */
export function agentFiles(
  adapter: AgentAdapter,
  install: AgentInstall,
  relay: string | undefined,
  support: AgentSupport = {},
): AgentFile[] {
  const host = adapter.packageDir ? adapter.packageDir(install) : install.binary;
  const files: AgentFile[] = [{ host, container: adapter.containerBinary }];
  if (adapter.containerRelay !== undefined) {
    if (relay === undefined) throw new Error(`the ${adapter.type} adapter needs its model relay`);
    files.push({ host: relay, container: adapter.containerRelay });
  }
  if (adapter.runtime === 'node') {
    if (support.node === undefined) throw new Error(`the ${adapter.type} adapter needs Node`);
    files.push({ host: support.node, container: NODE_RUNTIME.container });
  }
  if (adapter.settings) {
    if (support.settings === undefined)
      throw new Error(`the ${adapter.type} adapter needs its settings`);
    files.push({ host: support.settings, container: adapter.settings.container });
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
