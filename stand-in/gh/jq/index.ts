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
  return new JqParser(source).parse();
}

const COMPARISONS = ['==', '!=', '<', '<=', '>', '>='];
// gojq's error is worded only where the subset's grammar agrees with jq's: at the end of
// input, at a token no jq term can start with, at an unbalanced closer. Any other token our
// grammar cannot take may still be valid jq beyond the subset.
const CANNOT_START = [',', '|', ')', ']', '}', ':', '//', ...COMPARISONS];
const CLOSERS = [')', ']', '}'];

/** A recursive-descent parser: one method per rule of the subset's grammar, loosest first. */
class JqParser {
  private readonly toks: Token[];
  private p = 0;

  constructor(private readonly source: string) {
    this.toks = tokenize(source, () => this.unsupported());
  }

  parse(): JqExpr {
    const e = this.pipe();
    if (this.peek().type !== 'eof') this.fail(CLOSERS);
    return e;
  }

  private unsupported(): never {
    throw new JqUnsupported(`--jq ${JSON.stringify(this.source)}`);
  }
  private peek(): Token {
    return this.toks[this.p] as Token;
  }
  private next(): Token {
    return this.toks[this.p++] as Token;
  }
  private is(text: string): boolean {
    return this.peek().type === 'punct' && this.peek().text === text;
  }
  private isWord(word: string): boolean {
    return this.peek().type === 'ident' && this.peek().text === word;
  }
  private fail(definite: readonly string[] = []): never {
    const t = this.peek();
    if (t.type === 'eof') {
      throw new JqParseError(parseErrorText(this.source, t.at, 'unexpected EOF'));
    }
    if (t.type === 'punct' && definite.includes(t.text)) {
      throw new JqParseError(
        parseErrorText(this.source, t.at, `unexpected token ${JSON.stringify(t.text)}`),
      );
    }
    return this.unsupported();
  }
  private expect(text: string): void {
    if (this.is(text)) this.p++;
    else this.fail(CLOSERS.filter((c) => c !== text));
  }

  private pipe(): JqExpr {
    const left = this.comma();
    if (!this.is('|')) return left;
    this.p++;
    return { kind: 'pipe', left, right: this.pipe() };
  }
  private comma(): JqExpr {
    let left = this.alt();
    while (this.is(',')) {
      this.p++;
      left = { kind: 'comma', left, right: this.alt() };
    }
    return left;
  }
  private alt(): JqExpr {
    const left = this.or();
    if (!this.is('//')) return left;
    this.p++;
    return { kind: 'alt', left, right: this.alt() };
  }
  private or(): JqExpr {
    let left = this.and();
    while (this.isWord('or')) {
      this.p++;
      left = { kind: 'or', left, right: this.and() };
    }
    return left;
  }
  private and(): JqExpr {
    let left = this.compare();
    while (this.isWord('and')) {
      this.p++;
      left = { kind: 'and', left, right: this.compare() };
    }
    return left;
  }
  private isComparison(): boolean {
    const t = this.peek();
    return t.type === 'punct' && COMPARISONS.includes(t.text);
  }
  private compare(): JqExpr {
    const left = this.additive();
    if (!this.isComparison()) return left;
    const op = this.next().text;
    const right = this.additive();
    // jq's comparisons do not chain: refuse rather than guess the error's wording.
    if (this.isComparison()) this.unsupported();
    return { kind: 'binop', op, left, right };
  }
  private additive(): JqExpr {
    let left = this.postfix();
    while (this.is('+') || this.is('-')) {
      const op = this.next().text;
      left = { kind: 'binop', op, left, right: this.postfix() };
    }
    return left;
  }
  private postfix(): JqExpr {
    let e = this.term();
    for (;;) {
      const t = this.peek();
      const after = this.toks[this.p + 1];
      if (t.type === 'field') {
        this.p++;
        e = { kind: 'key', target: e, key: t.text };
      } else if (this.is('.') && after?.type === 'string') {
        this.p++;
        e = { kind: 'key', target: e, key: JSON.parse(this.next().text) as string };
      } else if (this.is('[') || (this.is('.') && after?.text === '[')) {
        if (this.is('.')) this.p++;
        e = this.bracket(e);
      } else return e;
    }
  }
  private bracket(target: JqExpr): JqExpr {
    this.expect('[');
    if (this.is(']')) {
      this.p++;
      return { kind: 'iterate', target };
    }
    const index = this.pipe();
    if (this.is(':')) this.unsupported(); // slices
    this.expect(']');
    return { kind: 'index', target, index };
  }
  private term(): JqExpr {
    const t = this.next();
    if (t.type === 'field') return { kind: 'key', target: { kind: 'identity' }, key: t.text };
    if (t.type === 'number') return { kind: 'literal', value: Number(t.text) };
    if (t.type === 'string') return { kind: 'literal', value: JSON.parse(t.text) as string };
    const punct = t.type === 'punct' ? this.punctTerm(t.text) : undefined;
    if (punct) return punct;
    if (t.type === 'ident') return this.identTerm(t.text);
    this.p--;
    return this.fail(CANNOT_START);
  }
  /** A term opened by punctuation, or undefined when none opens with it. */
  private punctTerm(text: string): JqExpr | undefined {
    if (text === '-' && this.peek().type === 'number') {
      return { kind: 'literal', value: -Number(this.next().text) };
    }
    if (text === '.') return this.dotTerm();
    if (text === '(') {
      const e = this.pipe();
      this.expect(')');
      return e;
    }
    if (text === '[') {
      if (this.is(']')) {
        this.p++;
        return { kind: 'array', body: undefined };
      }
      const body = this.pipe();
      this.expect(']');
      return { kind: 'array', body };
    }
    if (text === '{') return this.object();
    return undefined;
  }
  private dotTerm(): JqExpr {
    if (this.peek().type === 'string') {
      const key = JSON.parse(this.next().text) as string;
      return { kind: 'key', target: { kind: 'identity' }, key };
    }
    if (this.is('.')) this.unsupported(); // recursion (..)
    if (this.is('[')) return this.bracket({ kind: 'identity' });
    return { kind: 'identity' };
  }
  private identTerm(name: string): JqExpr {
    if (['true', 'false', 'null'].includes(name)) {
      return { kind: 'literal', value: JSON.parse(name) as unknown };
    }
    const arity = FUNCS[name];
    if (arity === undefined) this.unsupported();
    const args: JqExpr[] = [];
    if (this.is('(')) {
      this.p++;
      args.push(this.pipe());
      this.expect(')');
    }
    if (args.length !== arity) this.unsupported();
    return { kind: 'call', name, args };
  }
  private object(): JqExpr {
    const entries: { key: JqExpr; value: JqExpr }[] = [];
    if (this.is('}')) {
      this.p++;
      return { kind: 'object', entries };
    }
    for (;;) {
      entries.push(this.objectEntry());
      if (!this.is(',')) break;
      this.p++;
    }
    this.expect('}');
    return { kind: 'object', entries };
  }
  private objectEntry(): { key: JqExpr; value: JqExpr } {
    const k = this.next();
    let name: string;
    if (k.type === 'ident' && !['and', 'or'].includes(k.text)) name = k.text;
    else if (k.type === 'string') name = JSON.parse(k.text) as string;
    else {
      this.p--;
      return this.fail([',', ')', ']', ':']);
    }
    const key: JqExpr = { kind: 'literal', value: name };
    if (!this.is(':'))
      return { key, value: { kind: 'key', target: { kind: 'identity' }, key: name } };
    this.p++;
    // jq's object values are terms (ExpD); anything wider is refused, not guessed.
    const value = this.postfix();
    if (!this.is(',') && !this.is('}')) this.fail([')', ']', ':']);
    return { key, value };
  }
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
