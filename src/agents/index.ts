/**
 * Agent adapters: how one kind of agent is installed (on the host, once, into the cache), how
 * it reaches the container (its binary mounted read-only), its environment, how a first and a
 * resumed turn are invoked, and how its stream is parsed into a {@link TurnSummary}.
 *
 * ```ts
 * const install = await ensureAgentInstalled({ package: CLAUDE_CODE_PACKAGE,
 *   version: '2.1.332', bin: CLAUDE_CODE_BIN });
 * const sessionId = newSessionId();
 * // container: binds claudeCodeBinds(install.binary, gatewayDir), env claudeCodeEnv(home)
 * const argv1 = claudeCodeArgv({ prompt, sessionId, resume: false });
 * const argv2 = claudeCodeArgv({ prompt: next, sessionId, resume: true });
 * const turn1 = parseClaudeCodeStream(stdoutOfTurn1);
 * const turn2 = parseClaudeCodeStream(stdoutOfTurn2,
 *   { previousSessionCostUsd: turn1.sessionCostUsd ?? 0 });
 * ```
 *
 * Campaigns play every adapter kind of `agent.type` (ADAPTER_KINDS, src/config/agent-kinds.ts)
 * through one table, {@link AGENT_ADAPTERS} (src/campaign/agent.ts and run-one.ts): install and
 * preflight once per campaign, one gateway and one session per run, each turn's stream kept as
 * turns/turn-NN.jsonl and its summary in the stop. Each agent has its folder (its adapter, how
 * it is launched, its session and its stream reader); what they share stands beside them.
 */
export {
  AgentInstallError,
  agentDir,
  agentsCacheRoot,
  ensureAgentInstalled,
  sha256File,
  type AgentInstall,
} from './install.js';
export { PLACEHOLDER_API_KEY } from './model-route.js';
export { markTruncated, TRUNCATED_TYPE, type StreamClaim, type TurnSummary } from './stream.js';
export { claimDisagreements } from './claims.js';
export {
  INSTRUCTION_FILES,
  instructionFileNamed,
  withNearMisses,
  type InstructionFile,
  type InstructionKind,
  type InstructionRule,
  type InstructionVerdict,
} from './instructions.js';
export type { SkillListing } from './skill-listing.js';
export { CLAUDE_CODE_INSTRUCTIONS, CLAUDE_CODE_SKILLS } from './claude-code/loading.js';
export {
  CLINE_INSTRUCTIONS,
  CLINE_REFUSALS,
  CLINE_SKILLS,
  clineExitCode,
} from './cline/loading.js';
export { CODEX_INSTRUCTIONS, CODEX_SKILLS } from './codex/loading.js';
export {
  COPILOT_CLI_INSTRUCTIONS,
  COPILOT_CLI_REFUSALS,
  COPILOT_CLI_SKILLS,
} from './copilot-cli/loading.js';
export {
  FACTORY_DROID_INSTRUCTIONS,
  FACTORY_DROID_REFUSALS,
  FACTORY_DROID_SKILLS,
  factoryDroidExitCode,
} from './factory-droid/loading.js';
export { GEMINI_CLI_INSTRUCTIONS, GEMINI_CLI_SKILLS } from './gemini-cli/loading.js';
export {
  KILO_CODE_INSTRUCTIONS,
  KILO_CODE_REFUSALS,
  KILO_CODE_SKILLS,
} from './kilo-code/loading.js';
export { OPENCODE_INSTRUCTIONS, OPENCODE_SKILLS } from './opencode/loading.js';
export {
  QWEN_CODE_INSTRUCTIONS,
  QWEN_CODE_SKILLS,
  qwenFrontMatterValue,
} from './qwen-code/loading.js';
export { AgentPreflightError, preflightAdapter, type PreflightOptions } from './preflight.js';
export {
  newSessionId,
  playAgentTurn,
  type PlayedTurn,
  type TurnPlay,
  type TurnSession,
} from './turn.js';
export { parseBareVersion, type AgentAdapter, type AgentFile } from './adapter.js';
export {
  AGENT_ADAPTERS,
  adapterShares,
  agentFiles,
  toolResultForms,
  type AgentSupport,
  type AdapterType,
  type ToolResultForms,
} from './adapters.js';
export {
  MODEL_PRICES,
  PRICE_TABLE_VERSION,
  priceModelCall,
  priceOf,
  priceServerTools,
  priceTokens,
  SERVER_TOOL_PRICES,
  type ModelPrice,
  type PricedTokens,
  type ServerToolRequests,
} from './prices.js';
export {
  NODE_RUNTIME,
  ensureNodeRuntime,
  ensureSettingsFile,
  nodeRuntimeInstall,
} from './support.js';

export {
  agentVersions,
  formatAgentVersions,
  PINNED_VERSIONS,
  type AgentVersions,
} from './versions.js';

// Claude Code
export {
  CLAUDE_CODE_BIN,
  CLAUDE_CODE_CONTAINER,
  CLAUDE_CODE_PACKAGE,
  CLAUDE_CODE_VERIFIED_VERSION,
  claudeCodeArgv,
  claudeCodeBinds,
  claudeCodeEnv,
} from './claude-code/launch.js';
export {
  ClaudeCodeSession,
  parseVersionOutput,
  playClaudeCodeTurn,
} from './claude-code/session.js';
export { parseClaudeCodeStream } from './claude-code/stream.js';

// Codex
export {
  CODEX_BIN,
  CODEX_CONTAINER,
  CODEX_PACKAGE,
  CODEX_VERIFIED_VERSION,
  codexArgv,
  codexBinaryPath,
  codexBinds,
  codexEnv,
  codexProviderArgs,
  parseCodexVersion,
} from './codex/launch.js';
export { CodexSession, playCodexTurn } from './codex/session.js';
export {
  parseCodexStream,
  ZERO_CODEX_USAGE,
  type CodexTurn,
  type CodexUsage,
} from './codex/stream.js';

// Copilot CLI
export {
  COPILOT_CLI_BIN,
  COPILOT_CLI_CONTAINER,
  COPILOT_CLI_DEFAULT_MODEL,
  COPILOT_CLI_PACKAGE,
  COPILOT_CLI_VERIFIED_VERSION,
  copilotArgv,
  copilotBinaryPath,
  copilotEnv,
  parseCopilotVersion,
} from './copilot-cli/launch.js';
export { CopilotCliSession } from './copilot-cli/session.js';
export { parseCopilotStream } from './copilot-cli/stream.js';
export { ensureCopilotUnpacked, isUnpacked, unpackedVersionDir } from './copilot-cli/unpack.js';

// Cline
export {
  CLINE_BIN,
  CLINE_CONTAINER,
  CLINE_DEFAULT_MODEL,
  CLINE_DRIVER_BUNDLE,
  CLINE_PACKAGE,
  CLINE_VERIFIED_VERSION,
  clineArgv,
  clineBinaryPath,
  clineEnv,
} from './cline/launch.js';
export { ClineSession } from './cline/session.js';
export { parseClineStream } from './cline/stream.js';

// Factory Droid
export {
  FACTORY_DROID_BIN,
  FACTORY_DROID_CONTAINER,
  FACTORY_DROID_DEFAULT_MODEL,
  FACTORY_DROID_MODEL_ID,
  FACTORY_DROID_PACKAGE,
  FACTORY_DROID_VERIFIED_VERSION,
  factoryDroidArgv,
  factoryDroidBinaryPath,
  factoryDroidEnv,
  factoryDroidSettings,
} from './factory-droid/launch.js';
export { FactoryDroidSession } from './factory-droid/session.js';
export { parseFactoryDroidStream } from './factory-droid/stream.js';

// Gemini CLI
export {
  GEMINI_CLI_BIN,
  GEMINI_CLI_CONTAINER,
  GEMINI_CLI_DEFAULT_MODEL,
  GEMINI_CLI_PACKAGE,
  GEMINI_CLI_SETTINGS,
  GEMINI_CLI_VERIFIED_VERSION,
  geminiCliArgv,
  geminiCliEnv,
  geminiPackageDir,
} from './gemini-cli/launch.js';
export { GeminiCliSession } from './gemini-cli/session.js';
export { parseGeminiStream } from './gemini-cli/stream.js';

// Kilo Code (OpenCode's family: src/agents/opencode-family)
export {
  KILO_CODE_BIN,
  KILO_CODE_CONTAINER,
  KILO_CODE_DEFAULT_MODEL,
  KILO_CODE_FAMILY,
  KILO_CODE_PACKAGE,
  KILO_CODE_VERIFIED_VERSION,
  kiloArgv,
  kiloBinaryPath,
  kiloEnv,
} from './kilo-code/launch.js';
export { KiloCodeSession } from './kilo-code/session.js';
export { parseKiloStream } from './kilo-code/stream.js';

// OpenCode
export {
  OPENCODE_BIN,
  OPENCODE_CONTAINER,
  OPENCODE_DEFAULT_MODEL,
  OPENCODE_PACKAGE,
  OPENCODE_VERIFIED_VERSION,
  opencodeArgv,
  opencodeBinaryPath,
  opencodeEnv,
} from './opencode/launch.js';
export { OpenCodeSession } from './opencode/session.js';
export { parseOpenCodeStream } from './opencode/stream.js';

// Qwen Code
export {
  QWEN_CODE_BIN,
  QWEN_CODE_CONTAINER,
  QWEN_CODE_DEFAULT_MODEL,
  QWEN_CODE_PACKAGE,
  QWEN_CODE_SETTINGS,
  QWEN_CODE_VERIFIED_VERSION,
  qwenCodeArgv,
  qwenCodeEnv,
  qwenPackageDir,
} from './qwen-code/launch.js';
export { QwenCodeSession } from './qwen-code/session.js';
export { parseQwenStream } from './qwen-code/stream.js';
