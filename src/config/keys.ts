/**
 * The API keys and the OAuth token evalrig adds on the host side (`agent.model.key_env`,
 * `agent.model.token_env`, `judge.model.key_env`) never
 * enter the container: that is the point of the model gateway. An eval set that would pass one in
 * anyway (its variable named in `agent.env`, another variable of `agent.env` holding the same
 * value on this host, or a condition's `env` holding it) is refused before anything is built, at
 * the place that passes it. No message quotes a key.
 */
import { pointer, quote, type Problem } from './problems.js';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A key evalrig reads on the host: where the eval set names it, and the variable. */
interface HostKey {
  readonly at: string;
  readonly name: string;
  /** Its value on this host; undefined or '' when unset. */
  readonly value: string | undefined;
  /** A Claude subscription's OAuth token (`token_env`), not an API key. */
  readonly token?: true;
}

function hostKeys(doc: Json, env: NodeJS.ProcessEnv): HostKey[] {
  const keys: HostKey[] = [];
  for (const owner of ['agent', 'judge'] as const) {
    const section = doc[owner];
    const model = isObject(section) ? section.model : undefined;
    if (!isObject(model)) continue;
    for (const field of ['key_env', 'token_env'] as const) {
      const name = model[field];
      if (typeof name !== 'string' || name === '') continue;
      const at = pointer(owner, 'model', field);
      const token = field === 'token_env' ? { token: true as const } : {};
      keys.push({ at, name, value: env[name] || undefined, ...token });
    }
  }
  return keys;
}

const whose = (key: HostKey): string =>
  `the ${key.token ? 'OAuth token' : 'API key'} of ${key.at} (${key.name})`;
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
  const agent = isObject(doc.agent) ? doc.agent : {};
  const problems: Problem[] = tokenProblems(agent);
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

/**
 * A subscription's OAuth token is sent only as Claude Code sends it, to the Messages API:
 * another agent type names a key (`key_env`) instead.
 */
function tokenProblems(agent: Json): Problem[] {
  const model = agent.model;
  if (!isObject(model) || !('token_env' in model)) return [];
  // A command agent's model is refused by the schema already.
  const type = agent.type;
  if (typeof type !== 'string' || type === 'claude-code' || type === 'command') return [];
  return [
    {
      pointer: pointer('agent', 'model', 'token_env'),
      message: `is taken only with a "claude-code" agent (a Claude subscription's OAuth token, sent as Claude Code sends it); a ${quote(type)} agent takes an API key: give "key_env"`,
    },
  ];
}
