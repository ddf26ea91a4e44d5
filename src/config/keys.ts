/**
 * The API keys evalrig adds on the host side (`agent.model.key_env`, `judge.model.key_env`) never
 * enter the container: that is the point of the model gateway. An eval set that would pass one in
 * anyway (its variable named in `agent.env`, another variable of `agent.env` holding the same
 * value on this host, or a condition's `env` holding it) is refused before anything is built, at
 * the place that passes it. No message quotes a key.
 */
import { pointer, type Problem } from './problems.js';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A key evalrig reads on the host: where the eval set names it, and the variable. */
interface HostKey {
  readonly at: string;
  readonly name: string;
  /** Its value on this host; undefined or '' when unset. */
  readonly value: string | undefined;
}

function hostKeys(doc: Json, env: NodeJS.ProcessEnv): HostKey[] {
  const keys: HostKey[] = [];
  for (const owner of ['agent', 'judge'] as const) {
    const section = doc[owner];
    const model = isObject(section) ? section.model : undefined;
    if (isObject(model) && typeof model.key_env === 'string' && model.key_env !== '') {
      const at = pointer(owner, 'model', 'key_env');
      keys.push({ at, name: model.key_env, value: env[model.key_env] || undefined });
    }
  }
  return keys;
}

const whose = (key: HostKey): string => `the API key of ${key.at} (${key.name})`;
const NEVER_IN =
  'evalrig adds it on the host side and it must never enter the container, where the agent could read it; remove it';

/**
 * Where `doc` would put a host-side API key into the container, given the host's variables
 * `env`: one problem per place, at its JSON pointer.
 *
 * @example
 * keyProblems({ agent: { env: ['ANTHROPIC_API_KEY'], model: { url, key_env: 'ANTHROPIC_API_KEY' } } }, process.env);
 * // [{ pointer: '/agent/env/0', message: 'passes the API key of /agent/model/key_env ...' }]
 */
export function keyProblems(doc: Json, env: NodeJS.ProcessEnv): Problem[] {
  const keys = hostKeys(doc, env);
  if (keys.length === 0) return [];
  const problems: Problem[] = [];
  const agent = isObject(doc.agent) ? doc.agent : {};
  const passed = Array.isArray(agent.env) ? (agent.env as unknown[]) : [];
  passed.forEach((name, i) => {
    if (typeof name !== 'string' || name === '') return;
    const at = pointer('agent', 'env', i);
    const named = keys.find((k) => k.name === name);
    if (named) {
      problems.push({
        pointer: at,
        message: `passes ${whose(named)} into the container: ${NEVER_IN}`,
      });
      return;
    }
    const value = env[name];
    const same = value ? keys.find((k) => k.value === value) : undefined;
    if (same) {
      problems.push({
        pointer: at,
        message: `${name} holds the same value on this host as ${whose(same)}: passed into the container, it would hand the agent the real key; ${NEVER_IN}`,
      });
    }
  });
  const conditions = isObject(doc.conditions) ? doc.conditions : {};
  for (const [condition, spec] of Object.entries(conditions)) {
    const vars = isObject(spec) && isObject(spec.env) ? spec.env : {};
    for (const [name, value] of Object.entries(vars)) {
      const same =
        typeof value === 'string' && value ? keys.find((k) => k.value === value) : undefined;
      if (!same) continue;
      problems.push({
        pointer: pointer('conditions', condition, 'env', name),
        message: `holds the value of ${whose(same)}: written here, it would hand the agent the real key; ${NEVER_IN}`,
      });
    }
  }
  return problems;
}
