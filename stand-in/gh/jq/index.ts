/**
 * The subset of jq the stand-in plays for `--jq`: paths (`.a.b`, `.["a"]`), `.[N]`, `.[]`,
 * `|`, `//`, `empty`, `length` and `.`. Anything else is refused with {@link JqUnsupported},
 * never guessed at.
 *
 * @example
 * formatJqOutput(evalJq(parseJq('.[] | .number'), [{ number: 1 }, { number: 2 }])) // '1\n2\n'
 */
import { stringifySorted } from '../fields/json.js';

/** A `--jq` expression outside the subset. */
export class JqUnsupported extends Error {}

/** A `--jq` expression that fails on its input (gh exits 1). */
export class JqRuntimeError extends Error {}

type Step = { kind: 'key'; key: string } | { kind: 'index'; index: number } | { kind: 'iterate' };

/** A parsed expression. */
export type JqExpr =
  | { kind: 'path'; steps: Step[] }
  | { kind: 'empty' }
  | { kind: 'length' }
  | { kind: 'pipe'; left: JqExpr; right: JqExpr }
  | { kind: 'alt'; left: JqExpr; right: JqExpr };

/** Parses an expression of the subset. @throws JqUnsupported */
export function parseJq(source: string): JqExpr {
  const p = new Parser(source);
  const expr = p.pipe();
  p.skipSpace();
  if (!p.done()) p.unsupported();
  return expr;
}

class Parser {
  private i = 0;
  constructor(private readonly s: string) {}

  done(): boolean {
    return this.i >= this.s.length;
  }

  unsupported(): never {
    throw new JqUnsupported(`--jq ${JSON.stringify(this.s)}`);
  }

  skipSpace(): void {
    while (this.i < this.s.length && /\s/.test(this.s[this.i] ?? '')) this.i++;
  }

  private eat(tok: string): boolean {
    this.skipSpace();
    if (this.s.startsWith(tok, this.i)) {
      this.i += tok.length;
      return true;
    }
    return false;
  }

  pipe(): JqExpr {
    let left = this.alt();
    while (this.eat('|')) left = { kind: 'pipe', left, right: this.alt() };
    return left;
  }

  private alt(): JqExpr {
    const left = this.term();
    // `//` is right-associative in jq.
    if (this.eat('//')) return { kind: 'alt', left, right: this.alt() };
    return left;
  }

  private term(): JqExpr {
    this.skipSpace();
    const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(this.s.slice(this.i))?.[0];
    if (word === 'empty' || word === 'length') {
      this.i += word.length;
      return { kind: word };
    }
    if (this.s[this.i] !== '.') this.unsupported();
    return this.path();
  }

  private path(): JqExpr {
    const steps: Step[] = [];
    this.i++; // the leading '.'
    let first = true;
    for (;;) {
      const c = this.s[this.i];
      if (c === '[') {
        steps.push(this.bracket());
      } else if (
        (first || c === '.') &&
        /[A-Za-z_"]/.test(this.s[first ? this.i : this.i + 1] ?? '')
      ) {
        if (!first) this.i++;
        steps.push({ kind: 'key', key: this.key() });
      } else break;
      first = false;
    }
    return { kind: 'path', steps };
  }

  private key(): string {
    if (this.s[this.i] === '"') return this.stringLiteral();
    const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(this.s.slice(this.i));
    if (!m) this.unsupported();
    this.i += m[0].length;
    return m[0];
  }

  private stringLiteral(): string {
    const m = /^"(?:[^"\\]|\\["\\/bfnrt])*"/.exec(this.s.slice(this.i));
    if (!m) this.unsupported();
    this.i += m[0].length;
    return JSON.parse(m[0]) as string;
  }

  private bracket(): Step {
    this.i++; // '['
    this.skipSpace();
    let step: Step;
    if (this.s[this.i] === ']') step = { kind: 'iterate' };
    else if (this.s[this.i] === '"') step = { kind: 'key', key: this.stringLiteral() };
    else {
      const m = /^-?\d+/.exec(this.s.slice(this.i));
      if (!m) this.unsupported();
      this.i += m[0].length;
      step = { kind: 'index', index: Number(m[0]) };
    }
    this.skipSpace();
    if (this.s[this.i] !== ']') this.unsupported();
    this.i++;
    return step;
  }
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

function describe(v: unknown): string {
  const json = stringifySorted(v);
  return `${typeName(v)} (${json.length > 30 ? json.slice(0, 27) + '...' : json})`;
}

/** Evaluates an expression on one input; returns the stream of outputs. */
export function evalJq(expr: JqExpr, input: unknown): unknown[] {
  switch (expr.kind) {
    case 'empty':
      return [];
    case 'length':
      return [lengthOf(input)];
    case 'pipe':
      return evalJq(expr.left, input).flatMap((v) => evalJq(expr.right, v));
    case 'alt': {
      const kept = evalJq(expr.left, input).filter((v) => v !== null && v !== false);
      return kept.length > 0 ? kept : evalJq(expr.right, input);
    }
    case 'path':
      return expr.steps.reduce<unknown[]>(
        (vals, step) => vals.flatMap((v) => applyStep(step, v)),
        [input],
      );
  }
}

function applyStep(step: Step, v: unknown): unknown[] {
  if (step.kind === 'key') {
    if (v === null) return [null];
    if (typeof v !== 'object' || Array.isArray(v)) {
      throw new JqRuntimeError(`expected an object but got: ${describe(v)}`);
    }
    const o = v as Record<string, unknown>;
    return [Object.prototype.hasOwnProperty.call(o, step.key) ? o[step.key] : null];
  }
  if (step.kind === 'index') {
    if (v === null) return [null];
    if (!Array.isArray(v)) throw new JqRuntimeError(`expected an array but got: ${describe(v)}`);
    const i = step.index < 0 ? v.length + step.index : step.index;
    return [i >= 0 && i < v.length ? v[i] : null];
  }
  if (Array.isArray(v)) return v;
  if (typeof v === 'object' && v !== null) return Object.values(v);
  throw new JqRuntimeError(`cannot iterate over: ${describe(v)}`);
}

function lengthOf(v: unknown): number {
  if (v === null) return 0;
  if (typeof v === 'string') return [...v].length;
  if (typeof v === 'number') return Math.abs(v);
  if (Array.isArray(v)) return v.length;
  if (typeof v === 'object') return Object.keys(v).length;
  throw new JqRuntimeError(`length cannot be applied to: ${describe(v)}`);
}

/** Prints outputs as gh does: strings raw, null as an empty line, the rest as compact JSON. */
export function formatJqOutput(values: unknown[]): string {
  return values
    .map((v) => (v === null ? '' : typeof v === 'string' ? v : stringifySorted(v)) + '\n')
    .join('');
}
