// The eval set's schema is read by editors as it stands, so it keeps its enums of agent
// kinds written out. They are not written by hand: this module sets them, and the sentence
// of default models, from src/config/agent-kinds.ts (the one list), in place, so that the
// rest of the file keeps its layout. generate-types.mjs runs it before it generates types.
import { tsImport } from 'tsx/esm/api';

/** The schema whose enums come from the kinds, relative to the project. */
export const KINDS_SCHEMA = 'src/config/evals.schema.json';

/** The one list of agent kinds (a TypeScript module: loaded through tsx). */
export function loadAgentKinds() {
  return tsImport('../src/config/agent-kinds.ts', import.meta.url);
}

/** Each part of the schema that the kinds decide: its path of keys, and its value. */
export function kindParts(kinds) {
  const agent = ['properties', 'agent'];
  return [
    [[...agent, 'if', 'properties', 'type', 'enum'], [...kinds.ADAPTER_KINDS]],
    [[...agent, 'then', 'if', 'properties', 'type', 'enum'], [...kinds.MODEL_NAMED_KINDS]],
    [
      [...agent, 'properties', 'type', 'enum'],
      ['command', ...kinds.ADAPTER_KINDS],
    ],
    [[...agent, 'properties', 'model_name', 'description'], modelNameDescription(kinds)],
  ];
}

function modelNameDescription(kinds) {
  const named = kinds.MODEL_NAMED_KINDS;
  const who = kinds.listKinds(named, (k) => `\`${k}\``, ' or ');
  const defaults = named.map((k) => `${JSON.stringify(kinds.DEFAULT_MODELS[k])} (${k})`);
  return (
    `For a ${who} agent: the model it asks for, and the price-table entry its tokens are ` +
    `priced with. Default ${defaults.join(', ')}.`
  );
}

/**
 * The schema's text with the kinds' parts set (to be formatted after). Throws when the
 * description of `agent.type` does not name every kind: that prose is the one part written
 * by hand, and a new kind must be described there.
 */
export function withKinds(text, kinds) {
  let out = text;
  for (const [at, value] of kindParts(kinds)) {
    const [start, end] = spanAt(out, at);
    out = out.slice(0, start) + JSON.stringify(value) + out.slice(end);
  }
  const typeDoc = JSON.parse(out).properties.agent.properties.type.description;
  const untold = kinds.ADAPTER_KINDS.filter((k) => !typeDoc.includes(`\`${k}\``));
  if (untold.length > 0) {
    throw new Error(
      `${KINDS_SCHEMA}: the description of agent.type does not describe ${untold.join(', ')}`,
    );
  }
  return out;
}

/** Where the value at `keys` (object keys, from the top) stands in the JSON `text`. */
export function spanAt(text, keys) {
  let i = 0;
  const space = () => {
    while (i < text.length && /\s/u.test(text[i])) i++;
  };
  const expect = (c) => {
    space();
    if (text[i] !== c) throw new Error(`expected ${c} at offset ${i} of the schema`);
    i++;
  };
  const string = () => {
    space();
    const start = i;
    expect('"');
    while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i));
  };
  const value = () => {
    space();
    const open = text[i];
    if (open === '"') return void string();
    if (open !== '{' && open !== '[') {
      while (i < text.length && !/[\s,\]}]/u.test(text[i])) i++;
      return;
    }
    const close = open === '{' ? '}' : ']';
    i++;
    space();
    if (text[i] === close) return void i++;
    for (;;) {
      if (open === '{') {
        string();
        expect(':');
      }
      value();
      space();
      if (text[i++] === close) return;
    }
  };
  for (const key of keys) {
    expect('{');
    for (;;) {
      space();
      if (text[i] === '}') throw new Error(`the schema has no ${keys.join('/')}`);
      if (string() === key) break;
      expect(':');
      value();
      expect(',');
    }
    expect(':');
  }
  space();
  const start = i;
  value();
  return [start, i];
}
