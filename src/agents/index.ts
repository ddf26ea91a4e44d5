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
 * Campaigns play them for `agent.type: "claude-code"`, `"codex"`, `"gemini-cli"`, `"opencode"`
 * and `"qwen-code"` through one table,
 * {@link AGENT_ADAPTERS} (src/campaign/agent.ts and run-one.ts): install and preflight once per
 * campaign, one gateway and one session per run, each turn's stream kept as
 * turns/turn-NN.jsonl and its summary in the stop.
 */
export {
  AgentInstallError,
  agentDir,
  agentsCacheRoot,
  ensureAgentInstalled,
  sha256File,
  type AgentInstall,
} from './install.js';
export {
  CLAUDE_CODE_BIN,
  CLAUDE_CODE_CONTAINER,
  CLAUDE_CODE_PACKAGE,
  CLAUDE_CODE_VERIFIED_VERSION,
  PLACEHOLDER_API_KEY,
  claudeCodeArgv,
  claudeCodeBinds,
  claudeCodeEnv,
  newSessionId,
} from './claude-code.js';
export {
  markTruncated,
  parseClaudeCodeStream,
  TRUNCATED_TYPE,
  type StreamClaim,
  type TurnSummary,
} from './transcript.js';
export { claimDisagreements } from './claims.js';
export {
  CLAUDE_CODE_INSTRUCTIONS,
  CODEX_INSTRUCTIONS,
  GEMINI_CLI_INSTRUCTIONS,
  INSTRUCTION_FILES,
  instructionFileNamed,
  withNearMisses,
  OPENCODE_INSTRUCTIONS,
  QWEN_CODE_INSTRUCTIONS,
  type InstructionFile,
  type InstructionKind,
  type InstructionRule,
  type InstructionVerdict,
} from './instructions.js';
export {
  CLAUDE_CODE_SKILLS,
  CODEX_SKILLS,
  GEMINI_CLI_SKILLS,
  OPENCODE_SKILLS,
  QWEN_CODE_SKILLS,
  qwenFrontMatterValue,
  type SkillListing,
} from './skill-listing.js';
export { ClaudeCodeSession, parseVersionOutput } from './session.js';
export { AgentPreflightError, preflightAdapter, type PreflightOptions } from './preflight.js';
export {
  playAgentTurn,
  playClaudeCodeTurn,
  type PlayedTurn,
  type TurnPlay,
  type TurnSession,
} from './turn.js';
export {
  AGENT_ADAPTERS,
  adapterShares,
  agentFiles,
  type AgentSupport,
  type AdapterType,
  type AgentAdapter,
  type AgentFile,
} from './adapters.js';
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
} from './codex.js';
export {
  parseCodexStream,
  ZERO_CODEX_USAGE,
  type CodexTurn,
  type CodexUsage,
} from './codex-transcript.js';
export { CodexSession, playCodexTurn } from './codex-session.js';
export {
  MODEL_PRICES,
  PRICE_TABLE_VERSION,
  priceOf,
  priceServerTools,
  priceTokens,
  SERVER_TOOL_PRICES,
  type ModelPrice,
  type PricedTokens,
  type ServerToolRequests,
} from './prices.js';
export {
  GEMINI_CLI_BIN,
  GEMINI_CLI_CONTAINER,
  GEMINI_CLI_DEFAULT_MODEL,
  GEMINI_CLI_PACKAGE,
  GEMINI_CLI_SETTINGS,
  GEMINI_CLI_VERIFIED_VERSION,
  GeminiCliSession,
  geminiCliArgv,
  geminiCliEnv,
  geminiPackageDir,
  parseBareVersion,
} from './gemini-cli.js';
export { parseGeminiStream } from './gemini-transcript.js';
export {
  QWEN_CODE_BIN,
  QWEN_CODE_CONTAINER,
  QWEN_CODE_DEFAULT_MODEL,
  QWEN_CODE_PACKAGE,
  QWEN_CODE_SETTINGS,
  QWEN_CODE_VERIFIED_VERSION,
  QwenCodeSession,
  qwenCodeArgv,
  qwenCodeEnv,
  qwenPackageDir,
} from './qwen-code.js';
export { parseQwenStream } from './qwen-transcript.js';
export {
  OPENCODE_BIN,
  OPENCODE_CONTAINER,
  OPENCODE_DEFAULT_MODEL,
  OPENCODE_PACKAGE,
  OPENCODE_VERIFIED_VERSION,
  OpenCodeSession,
  opencodeArgv,
  opencodeBinaryPath,
  opencodeEnv,
} from './opencode.js';
export { parseOpenCodeStream } from './opencode-transcript.js';
export {
  NODE_RUNTIME,
  ensureNodeRuntime,
  ensureSettingsFile,
  nodeRuntimeInstall,
} from './support.js';
