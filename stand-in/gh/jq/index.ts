/**
 * The subset of jq the stand-in plays for `--jq`, evaluated as gojq (the library gh uses through
 * go-gh's `pkg/jq`) evaluates it: paths (`.a.b`, `.["a"]`, `.[N]`, `.[]`), `|`, `,`, `//`,
 * literals (numbers, strings without interpolation, `true`, `false`, `null`), `[...]`, `{...}`
 * with term values, `( )`, `==` `!=` `<` `<=` `>` `>=`, `and`, `or`, `+` `-`, and the functions
 * `empty`, `length`, `not`, `keys`, `first`, `last`, `add`, `type`, `reverse`, `tostring`,
 * `map(f)`, `select(f)`, `join(s)`, `has(k)`, `startswith(s)`, `endswith(s)`, `split(s)`.
 * Anything else is refused with {@link JqUnsupported}, never guessed at; an expression cut
 * short gets gh's parse error ({@link JqParseError}).
 *
 * @example
 * formatJqOutput(evalJq(parseJq('.[] | select(.isDraft) | .number'), [{ number: 1, isDraft: true }])) // '1\n'
 */
import { goJson } from '../fields/json.js';

/** A `--jq` expression outside the subset. */
export class JqUnsupported extends Error {}

/** A `--jq` expression that fails on its input (gh exits 1). */
export class JqRuntimeError extends Error {}

/** A `--jq` expression gojq cannot parse, worded as go-gh's `EvaluateFormatted` words it. */
export class JqParseError extends Error {}

/** A parsed expression. */
export type JqExpr =
  | { kind: 'identity' }
  | { kind: 'literal'; value: unknown }
  | { kind: 'key'; target: JqExpr; key: string }
  | { kind: 'index'; target: JqExpr; index: JqExpr }
  | { kind: 'iterate'; target: JqExpr }
  | { kind: 'pipe' | 'comma' | 'alt' | 'and' | 'or'; left: JqExpr; right: JqExpr }
  | { kind: 'binop'; op: string; left: JqExpr; right: JqExpr }
  | { kind: 'array'; body: JqExpr | undefined }
  | { kind: 'object'; entries: { key: JqExpr; value: JqExpr }[] }
  | { kind: 'call'; name: string; args: JqExpr[] };

type Token = {
  type: 'punct' | 'ident' | 'field' | 'number' | 'string' | 'eof';
  text: string;
  at: number;
};

const FUNCS: Record<string, number> = {
  empty: 0,
  length: 0,
  not: 0,
  keys: 0,
  first: 0,
  last: 0,
  add: 0,
  type: 0,
  reverse: 0,
  tostring: 0,
  map: 1,
  select: 1,
  join: 1,
  has: 1,
  startswith: 1,
  endswith: 1,
  split: 1,
};

/** Reads tokens; anything outside the subset's lexicon is refused. */
function tokenize(s: string, unsupported: () => never): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < s.length) {
    const c = s[i] ?? '';
    if (/[\t\n\r ]/.test(c)) {
      i++;
      continue;
    }
    const rest = s.slice(i);
    const m =
      /^(\/\/|==|!=|<=|>=|[|,.[\](){}:<>+-])/.exec(rest) ??
      /^[A-Za-z_][A-Za-z0-9_]*/.exec(rest) ??
      /^(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?/.exec(rest) ??
      /^"(?:[^"\\]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"/.exec(rest);
    if (!m) unsupported();
    const text = m[0];
    if (text === '.' && /^\.[A-Za-z_]/.test(rest)) {
      const f = /^\.([A-Za-z_][A-Za-z0-9_]*)/.exec(rest)?.[1] ?? '';
      out.push({ type: 'field', text: f, at: i });
      i += f.length + 1;
      continue;
    }
    const type = /^[A-Za-z_]/.test(text)
      ? 'ident'
      : /^[\d.]/.test(text) && text !== '.'
        ? 'number'
        : text.startsWith('"')
          ? 'string'
          : 'punct';
    out.push({ type, text, at: i });
    i += text.length;
  }
  out.push({ type: 'eof', text: '', at: s.length });
  return out;
}

/** Parses an expression of the subset. @throws JqUnsupported, JqParseError */
export function parseJq(source: string): JqExpr {
  const unsupported = (): never => {
    throw new JqUnsupported(`--jq ${JSON.stringify(source)}`);
  };
  const toks = tokenize(source, unsupported);
  let p = 0;
  const peek = (): Token => toks[p] as Token;
  const next = (): Token => toks[p++] as Token;
  const is = (text: string): boolean => peek().type === 'punct' && peek().text === text;
  // gojq's error is worded only where the subset's grammar agrees with jq's: at the end of
  // input, at a token no jq term can start with, at an unbalanced closer. Any other token our
  // grammar cannot take may still be valid jq beyond the subset.
  const CANNOT_START = [',', '|', ')', ']', '}', ':', '//', '==', '!=', '<=', '>=', '<', '>'];
  const CLOSERS = [')', ']', '}'];
  const fail = (definite: readonly string[] = []): never => {
    const t = peek();
    if (t.type === 'eof') throw new JqParseError(parseErrorText(source, t.at, 'unexpected EOF'));
    if (t.type === 'punct' && definite.includes(t.text)) {
      throw new JqParseError(
        parseErrorText(source, t.at, `unexpected token ${JSON.stringify(t.text)}`),
      );
    }
    return unsupported();
  };
  const expect = (text: string): void => {
    if (is(text)) p++;
    else fail(CLOSERS.filter((c) => c !== text));
  };

  const pipe = (): JqExpr => {
    const left = comma();
    if (is('|')) {
      p++;
      return { kind: 'pipe', left, right: pipe() };
    }
    return left;
  };
  const comma = (): JqExpr => {
    let left = alt();
    while (is(',')) {
      p++;
      left = { kind: 'comma', left, right: alt() };
    }
    return left;
  };
  const alt = (): JqExpr => {
    const left = or();
    if (is('//')) {
      p++;
      return { kind: 'alt', left, right: alt() };
    }
    return left;
  };
  const or = (): JqExpr => {
    let left = and();
    while (peek().type === 'ident' && peek().text === 'or') {
      p++;
      left = { kind: 'or', left, right: and() };
    }
    return left;
  };
  const and = (): JqExpr => {
    let left = compare();
    while (peek().type === 'ident' && peek().text === 'and') {
      p++;
      left = { kind: 'and', left, right: compare() };
    }
    return left;
  };
  const compare = (): JqExpr => {
    const left = additive();
    const t = peek();
    if (t.type === 'punct' && ['==', '!=', '<', '<=', '>', '>='].includes(t.text)) {
      p++;
      const right = additive();
      // jq's comparisons do not chain: refuse rather than guess the error's wording.
      const after = peek();
      if (after.type === 'punct' && ['==', '!=', '<', '<=', '>', '>='].includes(after.text)) {
        unsupported();
      }
      return { kind: 'binop', op: t.text, left, right };
    }
    return left;
  };
  const additive = (): JqExpr => {
    let left = postfix();
    while (is('+') || is('-')) {
      const op = next().text;
      left = { kind: 'binop', op, left, right: postfix() };
    }
    return left;
  };
  const postfix = (): JqExpr => {
    let e = term();
    for (;;) {
      const t = peek();
      if (t.type === 'field') {
        p++;
        e = { kind: 'key', target: e, key: t.text };
      } else if (t.type === 'punct' && t.text === '.' && toks[p + 1]?.type === 'string') {
        p++;
        e = { kind: 'key', target: e, key: JSON.parse(next().text) as string };
      } else if (is('[') || (is('.') && toks[p + 1]?.text === '[')) {
        if (is('.')) p++;
        e = bracket(e);
      } else return e;
    }
  };
  const bracket = (target: JqExpr): JqExpr => {
    expect('[');
    if (is(']')) {
      p++;
      return { kind: 'iterate', target };
    }
    const index = pipe();
    if (is(':')) unsupported(); // slices
    expect(']');
    return { kind: 'index', target, index };
  };
  const term = (): JqExpr => {
    const t = next();
    if (t.type === 'field') return { kind: 'key', target: { kind: 'identity' }, key: t.text };
    if (t.type === 'number') return { kind: 'literal', value: Number(t.text) };
    if (t.type === 'string') return { kind: 'literal', value: JSON.parse(t.text) as string };
    if (t.type === 'punct') {
      if (t.text === '-' && peek().type === 'number')
        return { kind: 'literal', value: -Number(next().text) };
      if (t.text === '.') {
        if (peek().type === 'string') {
          return {
            kind: 'key',
            target: { kind: 'identity' },
            key: JSON.parse(next().text) as string,
          };
        }
        if (is('.')) unsupported(); // recursion (..)
        if (is('[')) return bracket({ kind: 'identity' });
        return { kind: 'identity' };
      }
      if (t.text === '(') {
        const e = pipe();
        expect(')');
        return e;
      }
      if (t.text === '[') {
        if (is(']')) {
          p++;
          return { kind: 'array', body: undefined };
        }
        const body = pipe();
        expect(']');
        return { kind: 'array', body };
      }
      if (t.text === '{') return object();
    }
    if (t.type === 'ident') {
      if (['true', 'false', 'null'].includes(t.text)) {
        return { kind: 'literal', value: JSON.parse(t.text) as unknown };
      }
      const arity = FUNCS[t.text];
      if (arity === undefined) unsupported();
      const args: JqExpr[] = [];
      if (is('(')) {
        p++;
        args.push(pipe());
        expect(')');
      }
      if (args.length !== arity) unsupported();
      return { kind: 'call', name: t.text, args };
    }
    p--;
    return fail(CANNOT_START);
  };
  const object = (): JqExpr => {
    const entries: { key: JqExpr; value: JqExpr }[] = [];
    if (is('}')) {
      p++;
      return { kind: 'object', entries };
    }
    for (;;) {
      const k = next();
      let key: JqExpr;
      if (k.type === 'ident' && !['and', 'or'].includes(k.text))
        key = { kind: 'literal', value: k.text };
      else if (k.type === 'string') key = { kind: 'literal', value: JSON.parse(k.text) as string };
      else {
        p--;
        return fail([',', ')', ']', ':']);
      }
      let value: JqExpr = {
        kind: 'key',
        target: { kind: 'identity' },
        key: key.kind === 'literal' ? String(key.value) : '',
      };
      if (is(':')) {
        p++;
        // jq's object values are terms (ExpD); anything wider is refused, not guessed.
        value = postfix();
        if (!is(',') && !is('}')) fail([')', ']', ':']);
      }
      entries.push({ key, value });
      if (is(',')) {
        p++;
        continue;
      }
      expect('}');
      return { kind: 'object', entries };
    }
  };

  const e = pipe();
  if (peek().type !== 'eof') fail(CLOSERS);
  return e;
}

/** go-gh's parse error (`EvaluateFormatted`, `getLineColumn`): where, the line, a caret. */
function parseErrorText(expr: string, at: number, message: string): string {
  let offset = Buffer.byteLength(expr.slice(0, at));
  let rest = expr;
  for (let line = 1; ; line++) {
    const nl = rest.indexOf('\n');
    const head = nl < 0 ? rest : rest.slice(0, nl);
    if (nl < 0 || Buffer.byteLength(head) >= offset) {
      const column = offset + 1;
      return `failed to parse jq expression (line ${line}, column ${column})\n    ${head}\n    ${'^'.padStart(column)}  ${message}`;
    }
    offset -= Buffer.byteLength(head) + 1;
    rest = rest.slice(nl + 1);
  }
}

function typeOf(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return 'boolean';
  return typeof v;
}

/** gojq's `Preview`: its JSON, cut to 30 bytes with a trailing marker. */
function preview(v: unknown): string {
  let bs = Buffer.from(goJson(v, false)).subarray(0, 32);
  if (bs.length > 30) {
    const trailing =
      typeof v === 'string'
        ? ' ..."'
        : Array.isArray(v)
          ? ' ...]'
          : typeOf(v) === 'object'
            ? ' ...}'
            : ' ...';
    while (bs.length > 30 - trailing.length) {
      let size = 1;
      // utf8.DecodeLastRune: a whole sequence when it is one, else a single byte.
      for (let n = 2; n <= 4 && n <= bs.length; n++) {
        const tail = bs.subarray(bs.length - n).toString('utf8');
        if (!tail.includes('\ufffd') && [...tail].length === 1 && (bs[bs.length - n] ?? 0) >= 0xc0)
          size = n;
      }
      bs = bs.subarray(0, bs.length - size);
    }
    return bs.toString('utf8') + trailing;
  }
  return bs.toString('utf8');
}

function typeError(v: unknown): string {
  return v === null || v === undefined ? 'null' : `${typeOf(v)} (${preview(v)})`;
}

const truthy = (v: unknown): boolean => v !== null && v !== false && v !== undefined;

/** jq's order of values: null < false < true < numbers < strings < arrays < objects. */
function compareValues(a: unknown, b: unknown): number {
  const rank = (v: unknown): number =>
    v === null
      ? 0
      : v === false
        ? 1
        : v === true
          ? 2
          : ['number', 'string', 'array', 'object'].indexOf(typeOf(v)) + 3;
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const c = compareValues(a[i], b[i]);
      if (c !== 0) return c;
    }
    return a.length - b.length;
  }
  if (ra === 6) {
    const oa = a as Record<string, unknown>;
    const ob = b as Record<string, unknown>;
    const ka = Object.keys(oa).sort();
    const kb = Object.keys(ob).sort();
    const c = compareValues(ka, kb);
    if (c !== 0) return c;
    for (const k of ka) {
      const d = compareValues(oa[k], ob[k]);
      if (d !== 0) return d;
    }
  }
  return 0;
}

function refuse(what: string): never {
  throw new JqUnsupported(`--jq ${what}`);
}

/** Evaluates an expression on one input; returns the stream of outputs. */
export function evalJq(expr: JqExpr, input: unknown): unknown[] {
  const ev = evalJq;
  switch (expr.kind) {
    case 'identity':
      return [input];
    case 'literal':
      return [expr.value];
    case 'pipe':
      return ev(expr.left, input).flatMap((v) => ev(expr.right, v));
    case 'comma':
      return [...ev(expr.left, input), ...ev(expr.right, input)];
    case 'alt': {
      const kept = ev(expr.left, input).filter(truthy);
      return kept.length > 0 ? kept : ev(expr.right, input);
    }
    case 'and':
    case 'or':
      return ev(expr.left, input).flatMap((l) => {
        if (expr.kind === 'and' ? !truthy(l) : truthy(l)) return [expr.kind === 'or'];
        return ev(expr.right, input).map(truthy);
      });
    case 'binop':
      return ev(expr.right, input).flatMap((r) =>
        ev(expr.left, input).map((l) => binop(expr.op, l, r)),
      );
    case 'key':
      return ev(expr.target, input).map((v) => indexKey(v, expr.key));
    case 'index':
      return ev(expr.index, input).flatMap((i) =>
        ev(expr.target, input).map((v) =>
          typeof i === 'string' ? indexKey(v, i) : indexNumber(v, i),
        ),
      );
    case 'iterate':
      return ev(expr.target, input).flatMap((v) => {
        if (Array.isArray(v)) return v;
        if (typeOf(v) === 'object') return Object.values(v as object);
        throw new JqRuntimeError(`cannot iterate over: ${typeError(v)}`);
      });
    case 'array':
      return [expr.body ? ev(expr.body, input) : []];
    case 'object': {
      let rows: Record<string, unknown>[] = [{}];
      for (const { key, value } of expr.entries) {
        const keys = ev(key, input);
        const values = ev(value, input);
        rows = rows.flatMap((row) =>
          keys.flatMap((k) => values.map((v) => ({ ...row, [String(k)]: v }))),
        );
      }
      return rows;
    }
    case 'call':
      return call(expr.name, expr.args, input);
  }
}

function indexKey(v: unknown, key: string): unknown {
  if (v === null) return null;
  if (typeOf(v) !== 'object')
    throw new JqRuntimeError(`expected an object but got: ${typeError(v)}`);
  const o = v as Record<string, unknown>;
  return Object.prototype.hasOwnProperty.call(o, key) ? o[key] : null;
}

function indexNumber(v: unknown, i: unknown): unknown {
  if (v === null) return null;
  if (typeof i !== 'number' || !Number.isInteger(i)) refuse(`index ${JSON.stringify(i)}`);
  // Strings indexed by number changed across gojq versions: refused rather than guessed.
  if (typeof v === 'string') refuse('an index into a string');
  if (!Array.isArray(v)) throw new JqRuntimeError(`expected an array but got: ${typeError(v)}`);
  const n = i < 0 ? v.length + i : i;
  return n >= 0 && n < v.length ? v[n] : null;
}

function binop(op: string, l: unknown, r: unknown): unknown {
  switch (op) {
    case '==':
      return compareValues(l, r) === 0;
    case '!=':
      return compareValues(l, r) !== 0;
    case '<':
      return compareValues(l, r) < 0;
    case '<=':
      return compareValues(l, r) <= 0;
    case '>':
      return compareValues(l, r) > 0;
    case '>=':
      return compareValues(l, r) >= 0;
    case '+':
      if (l === null) return r;
      if (r === null) return l;
      if (typeof l === 'number' && typeof r === 'number') return l + r;
      if (typeof l === 'string' && typeof r === 'string') return l + r;
      if (Array.isArray(l) && Array.isArray(r)) return [...l, ...r];
      if (typeOf(l) === 'object' && typeOf(r) === 'object')
        return { ...(l as object), ...(r as object) };
      return refuse(`"+" of ${typeOf(l)} and ${typeOf(r)}`);
    default:
      if (typeof l === 'number' && typeof r === 'number') return l - r;
      if (Array.isArray(l) && Array.isArray(r)) {
        return l.filter((x) => !r.some((y) => compareValues(x, y) === 0));
      }
      return refuse(`"-" of ${typeOf(l)} and ${typeOf(r)}`);
  }
}

function call(name: string, args: JqExpr[], input: unknown): unknown[] {
  const arg = args[0] as JqExpr;
  const typeFail = (): never => {
    throw new JqRuntimeError(`${name} cannot be applied to: ${typeError(input)}`);
  };
  switch (name) {
    case 'empty':
      return [];
    case 'not':
      return [!truthy(input)];
    case 'type':
      return [typeOf(input)];
    case 'length':
      if (input === null) return [0];
      if (typeof input === 'string') return [[...input].length];
      if (typeof input === 'number') return [Math.abs(input)];
      if (Array.isArray(input)) return [input.length];
      if (typeOf(input) === 'object') return [Object.keys(input as object).length];
      return typeFail();
    case 'keys':
      if (Array.isArray(input)) return [input.map((_, i) => i)];
      if (typeOf(input) === 'object') return [Object.keys(input as object).sort()];
      return typeFail();
    case 'first':
    case 'last':
    case 'reverse':
    case 'add':
    case 'map':
      if (!Array.isArray(input)) {
        if (name === 'map' && typeOf(input) === 'object') {
          return [Object.values(input as object).flatMap((v) => evalJq(arg, v))];
        }
        return refuse(`${name} of ${typeOf(input)}`);
      }
      if (name === 'first') return [input[0] ?? null];
      if (name === 'last') return [input[input.length - 1] ?? null];
      if (name === 'reverse') return [[...input].reverse()];
      if (name === 'map') return [input.flatMap((v) => evalJq(arg, v))];
      return [input.reduce((acc: unknown, v) => binop('+', acc, v), null)];
    case 'tostring':
      return [typeof input === 'string' ? input : goJson(input, false)];
    case 'select':
      return evalJq(arg, input)
        .filter(truthy)
        .map(() => input);
    case 'has':
      return evalJq(arg, input).map((k) => {
        if (typeOf(input) === 'object' && typeof k === 'string') {
          return Object.prototype.hasOwnProperty.call(input, k);
        }
        if (Array.isArray(input) && typeof k === 'number') return k >= 0 && k < input.length;
        return refuse(`has of ${typeOf(input)}`);
      });
    case 'startswith':
    case 'endswith':
    case 'split':
      return evalJq(arg, input).map((s) => {
        if (typeof input !== 'string' || typeof s !== 'string')
          return refuse(`${name} of ${typeOf(input)}`);
        if (name === 'split') return s === '' ? refuse('split("")') : input.split(s);
        return name === 'startswith' ? input.startsWith(s) : input.endsWith(s);
      });
    default:
      // join
      return evalJq(arg, input).map((sep) => {
        if (!Array.isArray(input)) return refuse(`join of ${typeOf(input)}`);
        if (input.length === 0) return '';
        if (typeof sep !== 'string') return refuse('join with a separator that is no string');
        return input
          .map((v) => {
            if (v === null) return '';
            if (typeof v === 'string') return v;
            if (typeof v === 'number' || typeof v === 'boolean') return goJson(v, false);
            return refuse(`join of ${typeOf(v)}`);
          })
          .join(sep);
      });
  }
}

/**
 * Prints outputs as go-gh's `EvaluateFormatted` does: strings raw, whole numbers without a
 * decimal point and others with two decimals, booleans as words, null as an empty line, the
 * rest as Go's `json.Marshal` writes it (keys sorted, `<`, `>`, `&` escaped).
 */
export function formatJqOutput(values: unknown[]): string {
  return values
    .map((v) => {
      if (v === null || v === undefined) return '\n';
      if (typeof v === 'string') return `${v}\n`;
      if (typeof v === 'boolean') return `${v}\n`;
      if (typeof v === 'number') {
        if (Number.isInteger(v)) {
          return `${Math.abs(v) >= 1e21 ? BigInt(v).toString() : String(v)}\n`;
        }
        return `${v.toFixed(2)}\n`;
      }
      return `${goJson(v, true)}\n`;
    })
    .join('');
}
