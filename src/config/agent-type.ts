/**
 * An agent `type` that names no kind, said once. The schema's branches hang on the type (an
 * adapter takes `version`, a command agent `command`), so a misspelt one also fails every
 * field of the other branch: four errors, the first "missing required field command", where
 * the one mistake is the type.
 */
import { ADAPTER_KINDS, quotedKinds } from './agent-kinds.js';
import { pointer, quote, type Problem } from './problems.js';
import { closestKind } from './spelling.js';
import { UNPLAYABLE_AGENTS } from './unplayable-agents.js';

const KINDS: readonly string[] = ['command', ...ADAPTER_KINDS];

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The agents of `doc` whose `type` is a string no kind has, by the pointer of the agent. */
function unknownTypes(doc: unknown): Map<string, string> {
  const found = new Map<string, string>();
  if (!isObject(doc)) return found;
  const look = (agent: unknown, at: string): void => {
    if (isObject(agent) && typeof agent.type === 'string' && !KINDS.includes(agent.type))
      found.set(at, agent.type);
  };
  look(doc.agent, '/agent');
  // A matrix's agents too: each item is an agent of its own.
  if (Array.isArray(doc.agents)) doc.agents.forEach((a, i) => look(a, pointer('agents', i)));
  if (isObject(doc.conditions))
    for (const [name, c] of Object.entries(doc.conditions))
      if (isObject(c)) look(c.agent, pointer('conditions', name, 'agent'));
  return found;
}

/**
 * `problems` with every problem of an agent whose type is unknown replaced by one, at its
 * `type`: what the type may be, and the kind it most likely meant.
 *
 * @example
 * // { "agent": { "type": "claude", "version": "2.1.0" } }
 * // -> /agent/type: unknown agent type "claude" (did you mean "claude-code"?); ...
 * // { "agent": { "type": "amp" } } -> /agent/type: agent type "amp": Amp (@sourcegraph/amp) cannot be played: ...
 */
export function oneProblemPerUnknownType(doc: unknown, problems: readonly Problem[]): Problem[] {
  const unknown = unknownTypes(doc);
  if (unknown.size === 0) return [...problems];
  const under = (p: Problem, at: string) => p.pointer === at || p.pointer.startsWith(`${at}/`);
  const kept = problems.filter((p) => ![...unknown.keys()].some((at) => under(p, at)));
  const said = [...unknown].map(([at, type]) => {
    const unplayable = UNPLAYABLE_AGENTS[type];
    if (unplayable)
      return {
        pointer: `${at}/type`,
        message: `agent type ${quote(type)}: ${unplayable.name} (${unplayable.package}) cannot be played: ${unplayable.reason} (see docs/agents.md); the types are "command", ${quotedKinds()}`,
      };
    const hint = closestKind(type, KINDS);
    return {
      pointer: `${at}/type`,
      message: `unknown agent type ${quote(type)}${hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ''}: the types are "command", ${quotedKinds()}`,
    };
  });
  return [...said, ...kept];
}

/** Whether `type` is an adapter kind (not `command`, not a misspelling of one). */
export function isAdapterKind(type: unknown): boolean {
  return typeof type === 'string' && (ADAPTER_KINDS as readonly string[]).includes(type);
}
