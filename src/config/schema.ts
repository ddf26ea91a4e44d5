/**
 * Validation of evals.json against evals.schema.json, with ajv's messages
 * turned into plain sentences a user can act on, each at its JSON pointer.
 */
import { createRequire } from 'node:module';
import type { Ajv2020, ErrorObject, Options, ValidateFunction } from 'ajv/dist/2020.js';
import { MODEL_NAMED_KINDS, quotedKinds } from './agent-kinds.js';
import { codebaseSchema, explainCodebase } from './codebase.js';
import evalsSchema from './evals.schema.json' with { type: 'json' };
import { escapePointerToken, quote, valueAt, type Problem } from './problems.js';
import { closest } from './spelling.js';

/** The eval-set schema's $id: what an evals.json writes as `"$schema"` to get completion. */
export const EVALS_SCHEMA_ID = 'https://evalrig.dev/schemas/evals.schema.json';

/** The JSON Schema (draft 2020-12) of evals.json. */
export { evalsSchema };

/**
 * The eval-set validator's code compiled ahead by the build (scripts/compile-schemas.mjs),
 * beside this file in dist/: compiling the schema at start took most of `evalrig validate`.
 */
export const AHEAD_VALIDATOR_FILE = 'evals.validate.cjs';

const require = createRequire(import.meta.url);
let compiled: ValidateFunction | undefined;

/**
 * Compiles the eval-set schema (the build passes `code` options to keep its source).
 * verbose: errors carry their parentSchema, where our sentences (patternErrorMessage, also
 * read by editors) and known field names live.
 */
export function compileEvalsSchema(options: Options = {}): {
  ajv: Ajv2020;
  validate: ValidateFunction;
} {
  // Loaded here, synchronously: only a run from source (no build) compiles.
  const { Ajv2020: Compiler } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  const ajv = new Compiler({ allErrors: true, verbose: true, strict: true, ...options });
  ajv.addKeyword({ keyword: 'patternErrorMessage', schemaType: 'string' });
  const validate = ajv.compile(inlineRefs(evalsSchema, { [CODEBASE_SCHEMA_NAME]: codebaseSchema }));
  return { ajv, validate };
}

/** The validator compiled ahead, or undefined when evalrig runs from its sources. */
function aheadValidator(): ValidateFunction | undefined {
  try {
    return require(`./${AHEAD_VALIDATOR_FILE}`) as ValidateFunction;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND') return undefined;
    throw error;
  }
}

function validator(): ValidateFunction {
  compiled ??= aheadValidator() ?? compileEvalsSchema().validate;
  return compiled;
}

/** Every schema violation of `doc`, as problems; empty when it conforms. */
export function schemaProblems(doc: unknown): Problem[] {
  const validate = validator();
  if (validate(doc)) return [];
  return explainErrors(doc, validate.errors ?? []);
}

const CODEBASE_SCHEMA_NAME = 'codebase.schema.json';

type SchemaNode = Record<string, unknown>;

/**
 * The schema with every `$ref` replaced by what it names (none is
 * recursive). ajv collects a referenced schema's errors by copying the list
 * gathered so far at every call: validated with refs, 10,000 failing items
 * took seconds, and a 4 MiB file minutes. Inlined, each error is pushed once.
 * Where a `$ref` has siblings, the referenced schema's own keywords win (its
 * patternErrorMessage is the sentence users see).
 */
function inlineRefs(root: SchemaNode, external: Record<string, SchemaNode>): SchemaNode {
  const resolve = (ref: string, within: SchemaNode): [SchemaNode, SchemaNode] => {
    const [file, fragment = ''] = ref.split('#');
    const target = file ? external[file] : within;
    if (!target) throw new Error(`schema $ref ${ref} names no known schema`);
    let node: unknown = target;
    for (const token of fragment.split('/').filter(Boolean)) node = (node as SchemaNode)[token];
    if (typeof node !== 'object' || node === null)
      throw new Error(`schema $ref ${ref} names nothing`);
    return [node as SchemaNode, target];
  };
  const walk = (value: unknown, within: SchemaNode): unknown => {
    if (Array.isArray(value)) return value.map((item) => walk(item, within));
    if (typeof value !== 'object' || value === null) return value;
    const node = value as SchemaNode;
    if (typeof node.$ref === 'string') {
      const { $ref, ...siblings } = node;
      const [target, targetRoot] = resolve($ref as string, within);
      const { $id: _id, $schema: _schema, $defs: _defs, ...own } = target;
      return walk({ ...siblings, ...own }, targetRoot);
    }
    return Object.fromEntries(
      Object.entries(node)
        .filter(([key]) => key !== '$defs')
        .map(([key, child]) => [key, walk(child, within)]),
    );
  };
  return walk(root, root) as SchemaNode;
}

/** Why a branch of the schema forbids a field (its `false` schema), by pointer. */
const FORBIDDEN: Record<string, string> = {
  '/agent/command': `is not given for an adapter agent (${quotedKinds()}): evalrig builds its argv each turn`,
  '/agent/resume_command': `is not given for an adapter agent (${quotedKinds()}): evalrig resumes its session each turn`,
  '/agent/version': `is taken only with an agent "type" that installs a package (${quotedKinds()})`,
  '/agent/model': `is taken only with an agent "type" whose model calls evalrig carries (${quotedKinds()})`,
  '/agent/model_name': `is taken only with a ${quotedKinds(MODEL_NAMED_KINDS, ' or ')} agent (the model it asks for)`,
  '/agent/install': `is taken only with an agent "type" that installs a package (${quotedKinds()})`,
};

/** Turns ajv's errors into one problem per mistake (alternatives collapsed into one). */
export function explainErrors(doc: unknown, errors: readonly ErrorObject[]): Problem[] {
  const problems: Problem[] = [];
  const consumed = new Set<ErrorObject>();
  const byPath = new ErrorsByPath(errors);
  // Outermost alternatives first, so an alternative nested inside one is judged with it.
  const alternatives = errors
    .filter((e) => e.keyword === 'oneOf' || e.keyword === 'anyOf')
    .sort((a, b) => depth(a.instancePath) - depth(b.instancePath));
  for (const alt of alternatives) {
    if (consumed.has(alt)) continue;
    const inner = byPath.under(alt.instancePath).filter((e) => e !== alt && !consumed.has(e));
    for (const e of [alt, ...inner]) consumed.add(e);
    problems.push(...explainAlternative(doc, alt, inner));
  }
  const namesReported = errors.some((o) => o.propertyName !== undefined);
  for (const e of errors) {
    if (consumed.has(e)) continue;
    // ajv reports a bad property name twice: the name's own error, then a summary.
    if (e.keyword === 'propertyNames' && namesReported) continue;
    // An if/then/else says only "must match the then schema": the branch's own errors say what.
    if (e.keyword === 'if') continue;
    problems.push(explainOne(e));
  }
  return dedupe(problems);
}

/**
 * Errors sorted by instance path, to find those at or under a path in
 * log time (a filter over all of them per alternative is quadratic).
 */
class ErrorsByPath {
  private readonly sorted: readonly ErrorObject[];
  constructor(errors: readonly ErrorObject[]) {
    this.sorted = [...errors].sort((a, b) => compare(a.instancePath, b.instancePath));
  }

  /** Errors whose instance path is `ptr` or below it, in path order. */
  under(ptr: string): ErrorObject[] {
    // Paths under `ptr` start with it and sort before `ptr` + '0' ('/' + 1).
    const found: ErrorObject[] = [];
    for (let i = this.lowerBound(ptr); i < this.sorted.length; i++) {
      const e = this.sorted[i]!;
      if (compare(e.instancePath, `${ptr}0`) >= 0) break;
      if (isUnder(e.instancePath, ptr)) found.push(e);
    }
    return found;
  }

  private lowerBound(ptr: string): number {
    let [low, high] = [0, this.sorted.length];
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (compare(this.sorted[mid]!.instancePath, ptr) < 0) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function explainAlternative(doc: unknown, alt: ErrorObject, inner: ErrorObject[]): Problem[] {
  const at = alt.instancePath;
  if (/^(\/evals\/\d+)?\/codebase$/.test(at)) {
    // The codebase module words its own mistakes (a short hash said to be one).
    return [{ pointer: at, message: explainCodebase(valueAt(doc, at)) }];
  }
  if (inner.length === 0) {
    return [{ pointer: at, message: 'matches more than one of the allowed forms' }];
  }
  const branches = new Map<string, ErrorObject[]>();
  for (const e of inner) {
    const rest = e.schemaPath.startsWith(`${alt.schemaPath}/`)
      ? e.schemaPath.slice(alt.schemaPath.length + 1)
      : '';
    const branch = rest.split('/')[0] ?? '';
    branches.set(branch, [...(branches.get(branch) ?? []), e]);
  }
  const typeMismatch = (list: ErrorObject[]): boolean =>
    list.some((e) => e.keyword === 'type' && e.instancePath === at);
  const fitting = [...branches.values()].filter((list) => !typeMismatch(list));
  if (fitting.length === 0) {
    // Wrong type for every form: say which types would do.
    const types = inner
      .filter((e) => e.keyword === 'type' && e.instancePath === at)
      .flatMap((e) => String(e.params.type).split(','));
    return [{ pointer: at, message: wrongType([...new Set(types)], valueAt(doc, at)) }];
  }
  // The value has the type of a form: report what that form still misses.
  const best = fitting.reduce((a, b) => (b.length < a.length ? b : a));
  return explainErrors(doc, best);
}

function explainOne(e: ErrorObject): Problem {
  const at = e.instancePath;
  const p = e.params as Record<string, unknown>;
  if (e.propertyName !== undefined) {
    const name = e.propertyName;
    const pointerToName = `${at}/${escapePointerToken(name)}`;
    return {
      pointer: pointerToName,
      message: `name ${quote(name)} ${sentence(e, false)}`,
    };
  }
  switch (e.keyword) {
    case 'additionalProperties': {
      const field = String(p.additionalProperty);
      const known = Object.keys((e.parentSchema?.properties as object | undefined) ?? {});
      const hint = closest(field, known);
      return {
        pointer: at,
        message: `unknown field ${quote(field)}${hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ''}${at === '' ? ' at the top level' : ''}`,
      };
    }
    case 'false schema':
      // A field one branch forbids, e.g. `command` of an agent whose adapter plays the turns.
      // A condition's own agent has the same fields: the same sentences.
      return {
        pointer: at,
        message:
          FORBIDDEN[at.replace(/^\/conditions\/[^/]+(?=\/agent\/)/u, '')] ?? 'is not allowed here',
      };
    case 'required':
      return {
        pointer: at,
        message: `missing required field ${JSON.stringify(p.missingProperty)}${at === '' ? ' at the top level' : ''}`,
      };
    case 'uniqueItems': {
      const [first, later] = [Number(p.j), Number(p.i)].sort((a, b) => a - b);
      return {
        pointer: `${at}/${later}`,
        message: `repeats item ${first} (${quote(valueAtIndex(e.data, later))})`,
      };
    }
    default:
      return { pointer: at, message: sentence(e) };
  }
}

/** The sentence for a keyword about the value itself (no location). */
function sentence(e: ErrorObject, showValue = true): string {
  const p = e.params as Record<string, unknown>;
  const got = e.data;
  switch (e.keyword) {
    case 'type':
      return wrongType(String(p.type).split(','), got);
    case 'pattern': {
      const said = e.parentSchema?.patternErrorMessage as string | undefined;
      const rule = said ?? `must match the pattern ${String(p.pattern)}`;
      return showValue ? `${rule}, got ${quote(got)}` : rule;
    }
    case 'minLength':
      return p.limit === 1 ? 'must not be empty' : `must be at least ${p.limit} characters long`;
    case 'maxLength':
      return `must be at most ${p.limit} characters long, got ${String(got).length}`;
    case 'minItems':
      return p.limit === 1 ? 'must list at least one item' : `must list at least ${p.limit} items`;
    case 'minimum':
      return `must be at least ${p.limit}, got ${quote(got)}`;
    case 'maximum':
      return `must be at most ${p.limit}, got ${quote(got)}`;
    case 'exclusiveMinimum':
      return `must be greater than ${p.limit}, got ${quote(got)}`;
    case 'exclusiveMaximum':
      return `must be less than ${p.limit}, got ${quote(got)}`;
    case 'enum':
      return `must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}, got ${quote(got)}`;
    case 'const':
      return `must be ${JSON.stringify(p.allowedValue)}, got ${quote(got)}`;
    default:
      return e.message ?? 'is not valid here';
  }
}

const ARTICLE: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

function wrongType(expected: readonly string[], got: unknown): string {
  const wanted = expected.map((t) => ARTICLE[t] ?? t);
  const list =
    wanted.length <= 1
      ? (wanted[0] ?? 'another type')
      : `${wanted.slice(0, -1).join(', ')} or ${wanted[wanted.length - 1]}`;
  return `wrong type: must be ${list}, got ${jsonType(got)}`;
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number' && !Number.isFinite(value))
    return 'a number too large to hold (it reads as Infinity)';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a number';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return `a string (${quote(value)})`;
  return typeof value === 'boolean' ? String(value) : typeof value;
}

function valueAtIndex(list: unknown, index: number | undefined): unknown {
  return Array.isArray(list) && index !== undefined ? list[index] : undefined;
}

function depth(ptr: string): number {
  return ptr === '' ? 0 : ptr.split('/').length;
}

function isUnder(ptr: string, parent: string): boolean {
  return ptr === parent || ptr.startsWith(`${parent}/`);
}

function dedupe(problems: Problem[]): Problem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.pointer}\u0000${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
