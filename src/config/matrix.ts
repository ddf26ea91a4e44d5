/**
 * A matrix eval set: its conditions crossed with a list of agents (the set's `agents`). Each
 * condition becomes one per agent, named `CONDITION@TYPE`, a name the rest of evalrig treats
 * as any condition's (a folder name, a column of the report) and that carries where it came
 * from (`matrix`), so the report can compare each agent with its own baseline.
 *
 * @example
 * matrixName('with_skill', 'codex'); // 'with_skill@codex'
 */
import type { AgentSpec, Condition } from './types.js';

/** Between the condition and the agent in an expanded name: not allowed in a condition name. */
export const MATRIX_SEPARATOR = '@';

/** The name of `base` played by the agent of type `agent`. */
export function matrixName(base: string, agent: string): string {
  return `${base}${MATRIX_SEPARATOR}${agent}`;
}

/** Each agent's copy of every condition, agent by agent (so that an agent's columns sit together). */
export function expandMatrix(
  conditions: readonly Condition[],
  agents: readonly AgentSpec[],
): Condition[] {
  return agents.flatMap((agent) => {
    // The schema and the matrix checks hold every entry to an adapter type.
    const type = agent.type!;
    return conditions.map((c) => ({
      ...c,
      name: matrixName(c.name, type),
      agent,
      matrix: { base: c.name, agent: type },
    }));
  });
}

/** "/conditions/with_skill": where a condition is written, an expanded one at its declared name. */
export function conditionPointer(c: Pick<Condition, 'name' | 'matrix'>): string {
  return `/conditions/${escapeToken(c.matrix?.base ?? c.name)}`;
}

/** Where a condition's agent is written: its entry of `agents`, its own `agent`, or the set's. */
export function agentPointer(
  conditions: readonly Pick<Condition, 'name' | 'matrix' | 'agent'>[],
  c: Pick<Condition, 'name' | 'matrix' | 'agent'>,
): string {
  if (c.matrix) {
    const types = [...new Set(conditions.flatMap((d) => (d.matrix ? [d.matrix.agent] : [])))];
    return `/agents/${types.indexOf(c.matrix.agent)}`;
  }
  return c.agent ? `${conditionPointer(c)}/agent` : '/agent';
}

function escapeToken(token: string): string {
  return token.replace(/~/gu, '~0').replace(/\//gu, '~1');
}
