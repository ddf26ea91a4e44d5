/**
 * The problems only a matrix eval set (one with `agents`) can have, each at its JSON pointer:
 * `agents` beside `agent`, a condition naming its own agent, an entry that is not an adapter
 * agent, two entries of one type (their conditions would have one name), and a set with
 * neither `agent` nor `agents`.
 */
import { quotedKinds } from './agent-kinds.js';
import { isAdapterKind } from './agent-type.js';
import { keyProblems } from './keys.js';
import { pointer, quote, type Problem } from './problems.js';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export function matrixProblems(doc: Json, env: NodeJS.ProcessEnv): Problem[] {
  if (!('agents' in doc)) {
    return 'agent' in doc
      ? []
      : [
          {
            pointer: '',
            message:
              'needs "agent" (the agent that plays the runs), or "agents" (a matrix: every condition under each agent)',
          },
        ];
  }
  if (!Array.isArray(doc.agents)) return [];
  const problems: Problem[] = [];
  if ('agent' in doc) {
    problems.push({
      pointer: '/agent',
      message:
        'a matrix set ("agents") has no "agent": each of its agents plays every condition; move this agent into "agents" or remove "agents"',
    });
  }
  for (const [name, c] of Object.entries(isObject(doc.conditions) ? doc.conditions : {})) {
    if (isObject(c) && 'agent' in c) {
      problems.push({
        pointer: pointer('conditions', name, 'agent'),
        message: `in a matrix set ("agents") a condition names no agent of its own: condition ${quote(name)} already runs under each of the set's agents`,
      });
    }
  }
  const seen = new Map<string, number>();
  doc.agents.forEach((entry, i) => {
    if (!isObject(entry)) return;
    const type = entry.type;
    if (type === undefined || type === 'command') {
      problems.push({
        pointer: pointer('agents', i, 'type'),
        message: `a matrix's agent must be an adapter agent (${quotedKinds()}), got ${quote(type ?? 'command')}`,
      });
      return;
    }
    // A misspelt type is said once, at the type, by the schema's check.
    if (!isAdapterKind(type) || typeof type !== 'string') return;
    const first = seen.get(type);
    if (first !== undefined) {
      problems.push({
        pointer: pointer('agents', i, 'type'),
        message: `${quote(type)} is already /agents/${first}: a matrix crosses different agents, and its conditions are named by the agent's type`,
      });
    } else seen.set(type, i);
    // Each agent's key, checked as the set's would be: never passed into the container.
    for (const p of keyProblems({ ...doc, agent: entry }, env)) {
      const at = p.pointer.startsWith('/agent/')
        ? pointer('agents', i) + p.pointer.slice(6)
        : p.pointer;
      if (!problems.some((q) => q.pointer === at && q.message === p.message)) {
        problems.push({ ...p, pointer: at });
      }
    }
  });
  return problems;
}
