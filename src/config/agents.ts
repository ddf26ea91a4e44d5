/**
 * Which agent plays a condition's runs: its own (a cross-agent campaign, where each
 * condition names an agent), else the eval set's.
 *
 * @example
 * const agent = agentOf(evalSet, planned.condition); // { type: 'codex', version: '0.171.0', ... }
 */
import type { AdapterKind } from './agent-kinds.js';
import type { AgentSpec, Condition, EvalSet } from './types.js';

/** An agent type whose turns an adapter of src/agents plays (every type but `command`). */
export type AdapterAgentType = AdapterKind;

/** The agent of `condition`'s runs: its own, else the set's. */
export function agentOf(evalSet: Pick<EvalSet, 'agent'>, condition: Condition): AgentSpec {
  return condition.agent ?? evalSet.agent;
}

/** True for an adapter agent (evalrig plays its turns, its model calls go through the gateway). */
export function isAdapterAgent(
  agent: AgentSpec,
): agent is AgentSpec & { readonly type: AdapterAgentType } {
  return agent.type !== undefined && agent.type !== 'command';
}
