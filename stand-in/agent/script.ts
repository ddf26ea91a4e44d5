import { readFileSync } from 'node:fs';
import { ScriptError } from './errors.js';
import { isObject, kind, token } from '../../src/model-stand-in/json-shape.js';

/** One step of a turn. Exactly one action key per object (see script.schema.json). */
export type Action =
  | { readonly write: string; readonly content: string }
  | { readonly append: string; readonly content: string }
  | { readonly delete: string }
  | { readonly run: string; readonly stdin?: string; readonly allow_failure?: boolean }
  | { readonly say: string }
  | { readonly stop: string }
  | { readonly follow: string }
  | { readonly if_exists: string; readonly then?: Action[]; readonly else?: Action[] }
  | { readonly sleep: number };

export interface Turn {
  readonly actions: Action[];
}

export interface Script {
  readonly turns: Turn[];
}

/** Each action key and the other keys it allows; `required` must be present. */
const ACTIONS: Record<string, { optional: string[]; required: string[] }> = {
  write: { required: ['content'], optional: [] },
  append: { required: ['content'], optional: [] },
  delete: { required: [], optional: [] },
  run: { required: [], optional: ['stdin', 'allow_failure'] },
  say: { required: [], optional: [] },
  stop: { required: [], optional: [] },
  follow: { required: [], optional: [] },
  if_exists: { required: [], optional: ['then', 'else'] },
  sleep: { required: [], optional: [] },
};
const ACTION_KEYS = Object.keys(ACTIONS);
/** Keys allowed anywhere for the reader's benefit; the agent ignores them. */
const COMMENT = 'description';

/** Checks a list of actions; `at` is the list's JSON pointer. */
export function checkActions(value: unknown, file: string, at: string): Action[] {
  if (!Array.isArray(value)) {
    throw new ScriptError(file, at, `must be an array of actions, not ${kind(value)}`);
  }
  value.forEach((action, i) => checkAction(action, file, `${at}${token(i)}`));
  return value as Action[];
}

function checkAction(value: unknown, file: string, at: string): void {
  if (!isObject(value))
    throw new ScriptError(file, at, `an action must be an object, not ${kind(value)}`);
  const keys = Object.keys(value).filter((k) => k !== COMMENT);
  const name = actionName(keys, file, at);
  checkFields(name, keys, value, file, at);
  checkValues(name, value, file, at);
}

/** The one action an object names. */
function actionName(keys: readonly string[], file: string, at: string): string {
  const named = keys.filter((k) => ACTION_KEYS.includes(k));
  if (named.length === 0) {
    const unknown = keys[0];
    throw new ScriptError(
      file,
      unknown === undefined ? at : `${at}${token(unknown)}`,
      `${unknown === undefined ? 'no action' : `unknown action "${unknown}"`} (expected one of ${ACTION_KEYS.join(', ')})`,
    );
  }
  if (named.length > 1) {
    throw new ScriptError(file, at, `one action per object, found ${named.join(' and ')}`);
  }
  return named[0]!;
}

const article = (name: string): string => (/^[aeiou]/.test(name) ? `an ${name}` : `a ${name}`);

/** No field the action does not take, and every field it needs. */
function checkFields(
  name: string,
  keys: readonly string[],
  value: Record<string, unknown>,
  file: string,
  at: string,
): void {
  const spec = ACTIONS[name]!;
  for (const key of keys) {
    if (key !== name && !spec.required.includes(key) && !spec.optional.includes(key)) {
      const allowed = [...spec.required, ...spec.optional];
      throw new ScriptError(
        file,
        `${at}${token(key)}`,
        `"${key}" is not a field of ${article(name)} action${allowed.length ? ` (it takes ${allowed.join(', ')})` : ''}`,
      );
    }
  }
  for (const key of spec.required) {
    if (!(key in value)) throw new ScriptError(file, at, `${article(name)} action needs "${key}"`);
  }
}

/** Each field's value has the type the action reads. */
function checkValues(name: string, value: Record<string, unknown>, file: string, at: string): void {
  const expectString = (key: string, nonEmpty: boolean): void => {
    const v = value[key];
    if (typeof v !== 'string') {
      throw new ScriptError(file, `${at}${token(key)}`, `must be a string, not ${kind(v)}`);
    }
    if (nonEmpty && v.trim() === '') {
      throw new ScriptError(file, `${at}${token(key)}`, 'must not be empty');
    }
  };
  if (['write', 'append', 'delete', 'follow', 'if_exists', 'run', 'stop'].includes(name)) {
    expectString(name, true);
  }
  if (name === 'write' || name === 'append') expectString('content', false);
  if (name === 'say') expectString(name, false);
  if (name === 'stop' && /[\r\n]/.test(value.stop as string)) {
    throw new ScriptError(file, `${at}/stop`, 'a stop kind is one line');
  }
  const s = value.sleep;
  if (name === 'sleep' && (typeof s !== 'number' || !Number.isFinite(s) || s < 0)) {
    throw new ScriptError(
      file,
      `${at}/sleep`,
      `must be a number of seconds >= 0, not ${JSON.stringify(s)}`,
    );
  }
  if (name === 'run') {
    if ('stdin' in value) expectString('stdin', false);
    if ('allow_failure' in value && typeof value.allow_failure !== 'boolean') {
      throw new ScriptError(
        file,
        `${at}/allow_failure`,
        `must be true or false, not ${kind(value.allow_failure)}`,
      );
    }
  }
  if (name === 'if_exists') {
    for (const branch of ['then', 'else']) {
      if (branch in value) checkActions(value[branch], file, `${at}${token(branch)}`);
    }
  }
}

/** Checks a whole script: `{ "turns": [ { "actions": [...] }, ... ] }`. */
export function checkScript(value: unknown, file: string): Script {
  if (!isObject(value))
    throw new ScriptError(file, '', `a script must be an object, not ${kind(value)}`);
  for (const key of Object.keys(value)) {
    if (key !== 'turns' && key !== '$schema' && key !== COMMENT) {
      throw new ScriptError(
        file,
        token(key),
        `"${key}" is not a field of a script (it takes turns)`,
      );
    }
  }
  if (!('turns' in value)) throw new ScriptError(file, '', 'a script needs "turns"');
  const turns = value.turns;
  if (!Array.isArray(turns))
    throw new ScriptError(file, '/turns', `must be an array, not ${kind(turns)}`);
  turns.forEach((turn, i) => {
    const at = `/turns${token(i)}`;
    if (!isObject(turn))
      throw new ScriptError(file, at, `a turn must be an object, not ${kind(turn)}`);
    for (const key of Object.keys(turn)) {
      if (key !== 'actions' && key !== COMMENT) {
        throw new ScriptError(
          file,
          `${at}${token(key)}`,
          `"${key}" is not a field of a turn (it takes actions)`,
        );
      }
    }
    if (!('actions' in turn)) throw new ScriptError(file, at, 'a turn needs "actions"');
    checkActions(turn.actions, file, `${at}/actions`);
  });
  return value as unknown as Script;
}

/** Parses JSON text, turning a syntax error into a ScriptError naming the file. */
export function parseJson(text: string, file: string, what = 'not valid JSON'): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ScriptError(file, '', `${what}: ${(error as Error).message}`);
  }
}

/** Reads and checks a script file; every problem is a ScriptError (exit 2). */
export function loadScript(file: string): Script {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ScriptError(file, '', `cannot read the script: ${(error as Error).message}`);
  }
  return checkScript(parseJson(text, file), file);
}
