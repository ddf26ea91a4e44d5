import type { AdapterKind, AgentKindFacts } from '../config/agent-kinds.js';
import type { WireAuth } from '../flight/index.js';
import type { AgentInstall } from './install.js';
import type { InstructionRule } from './instructions.js';
import type { SkillListing } from './skill-listing.js';
import type { TurnSession } from './turn.js';

/**
 * What differs between the adapters, in one place: the package and where its executable is,
 * where a container sees it, the model API paths its gateway forwards and how the key is sent
 * upstream, its environment, the argv that asks its version, and its per-run session. Its
 * name, package and default model are its kind's (AGENT_KINDS). Each agent's folder writes its
 * own; adapters.ts gathers them into one table.
 *
 * ```ts
 * const adapter = AGENT_ADAPTERS[evalSet.agent.type];
 * const install = await ensureAgentInstalled(adapter.install(version));
 * const session = adapter.newSession({ model, extraArgs });
 * await playAgentTurn(container, session, adapter.env(home), turn);
 * ```
 */
export interface AgentAdapter<K extends AdapterKind = AdapterKind> extends AgentKindFacts {
  readonly type: K;
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
  /**
   * A folder the agent would unpack from its binary on every first start (Copilot CLI's package
   * cache): unpacked once per version on the host, mounted read-only at `container`.
   */
  readonly unpacked?: {
    readonly container: string;
    unpack(install: AgentInstall): Promise<string>;
  };
  /**
   * A program of evalrig's that plays each turn for the agent (a stand-in/<bundle> the build
   * bundles), mounted read-only at `container`: Cline's ACP driver.
   */
  readonly driver?: { readonly container: string; readonly bundle: string };
  /** The agent runs on the Node runtime evalrig installs (mounted at NODE_RUNTIME.container). */
  readonly runtime?: 'node';
  /** A system settings file the agent is pointed at (written to the cache, mounted read-only). */
  readonly settings?: { readonly container: string; readonly content: string };
  /** Where the container sees the model relay (every agent but Claude Code), or undefined. */
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
  /**
   * A shell call's exit code as its tool result writes it, or null where the result says none.
   * Absent: the agent marks a failed call on the wire (Claude Code's `is_error`) or not at all.
   */
  exitCodeOf?(result: string): number | null;
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

/** A file an adapter needs in the run's container: mounted read-only, or copied into an image. */
export interface AgentFile {
  readonly host: string;
  readonly container: string;
}

/** The model a session of `type` asks for: the eval set always names one (its default). */
export function needModel(type: AdapterKind, model: string | undefined): string {
  if (model === undefined) throw new Error(`a ${type} session needs its model name`);
  return model;
}

/** A version answered alone on its line ("0.61.0"), or null: Gemini CLI's, OpenCode's, Qwen Code's. */
export function parseBareVersion(stdout: string): string | null {
  const m = /^(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)\s*$/.exec(stdout.trim());
  return m ? m[1]! : null;
}
