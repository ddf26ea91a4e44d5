/**
 * The eval set: its JSON Schema (evals.schema.json, which `$ref`s
 * codebase.schema.json), loading with every problem listed at its JSON
 * pointer, and the normalized form everyone else uses.
 *
 * @example
 * import { loadEvalSet, EvalSetError } from '../config/index.js';
 * const set = await loadEvalSet('evals.json'); // throws EvalSetError (exit 2)
 */
export * from './types.js';
export type { CodebaseSource } from './codebase.js';
export { loadEvalSet, EvalSetSyntaxError, type LoadOptions } from './load.js';
export { EvalSetError, formatProblems, type Problem } from './problems.js';
export { EVALS_SCHEMA_ID, evalsSchema } from './schema.js';
export { DEFAULTS } from './normalize.js';
export { agentPointer, conditionPointer, MATRIX_SEPARATOR, matrixName } from './matrix.js';
export { agentOf, isAdapterAgent, type AdapterAgentType } from './agents.js';
export {
  ADAPTER_KINDS,
  AGENT_KINDS,
  DEFAULT_MODELS,
  MODEL_NAMED_KINDS,
  quotedKinds,
  type AdapterKind,
  type AgentKindFacts,
} from './agent-kinds.js';
export { parseMemory } from './memory.js';
export {
  checkResourcesAgainstEngine,
  refuseBeyondEngine,
  refuseBeyondEngines,
  type EngineCapacity,
  type EngineInfo,
} from './engine.js';
export { whyNotBranchName } from './refname.js';
export {
  BUILTIN_MESSAGE_CHECKS,
  MISSING_GH_PATTERN,
  type MessageCheck,
  type MessageCheckStops,
  type MessageRule,
} from './message-checks.js';
