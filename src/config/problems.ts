import { InputError } from '../errors/index.js';

/** One thing wrong with an eval set: where (a JSON pointer into the file) and what, in words. */
export interface Problem {
  /** RFC 6901 pointer into evals.json; "" is the whole document. */
  readonly pointer: string;
  /** A plain sentence, without the location. */
  readonly message: string;
}

/**
 * An eval set cannot be used. Carries every problem found (not only the
 * first), each printed as `  <file>#<pointer>: <sentence>`. Exit code 2.
 */
export class EvalSetError extends InputError {
  constructor(
    /** The eval set file as the user named it. */
    readonly file: string,
    readonly problems: readonly Problem[],
  ) {
    super(formatProblems(file, problems));
  }
}

/** The message of an {@link EvalSetError}: a header line, then one line per problem. */
export function formatProblems(file: string, problems: readonly Problem[]): string {
  const n = problems.length;
  // A file of a million wrong items is one mistake repeated: the first ones tell it.
  const lines = problems
    .slice(0, MAX_LISTED)
    .map((p) => `  ${file}#${clip(p.pointer, 200)}: ${p.message}`);
  if (n > MAX_LISTED) lines.push(`  ... and ${n - MAX_LISTED} more`);
  return [`${file} is not a valid eval set (${n} problem${n === 1 ? '' : 's'}):`, ...lines].join(
    '\n',
  );
}

/** The most problems an error message lists (all stay in `problems`). */
export const MAX_LISTED = 50;

/**
 * A value as JSON in a sentence, cut to `max` characters: a 10 MB string or a
 * deep array quoted whole would bury the message (or exhaust the stack).
 *
 * @example quote('a'.repeat(500)) // '"aaaa…" (500 characters)'
 */
export function quote(value: unknown, max = 80): string {
  if (typeof value === 'string') {
    const whole = JSON.stringify(value.length > max ? value.slice(0, max) : value);
    return value.length > max ? `${whole.slice(0, -1)}…" (${value.length} characters)` : whole;
  }
  if (value !== null && typeof value === 'object')
    return Array.isArray(value) ? 'an array' : 'an object';
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  return clip(String(JSON.stringify(value)), max);
}

/** `text` cut to `max` characters, marked when cut (long paths in messages). */
export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** Escapes one reference token of a JSON pointer (RFC 6901: ~ -> ~0, / -> ~1). */
export function escapePointerToken(token: string | number): string {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Builds a JSON pointer from its tokens: pointer('evals', 0, 'id') -> "/evals/0/id". */
export function pointer(...tokens: readonly (string | number)[]): string {
  return tokens.map((t) => `/${escapePointerToken(t)}`).join('');
}

/** The value at a JSON pointer in `doc`, or undefined. */
export function valueAt(doc: unknown, ptr: string): unknown {
  if (ptr === '') return doc;
  let current: unknown = doc;
  for (const raw of ptr.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, token))
      return undefined;
    current = (current as Record<string, unknown>)[token];
  }
  return current;
}

/**
 * Problems in the order their places appear in the document (a missing
 * field's problem sits with its object), so the list reads top to bottom.
 */
export function inDocumentOrder(doc: unknown, problems: readonly Problem[]): Problem[] {
  const order = new Map<string, number>();
  const walk = (value: unknown, at: string): void => {
    order.set(at, order.size);
    if (value === null || typeof value !== 'object') return;
    for (const [key, child] of Object.entries(value))
      walk(child, `${at}/${escapePointerToken(key)}`);
  };
  walk(doc, '');
  const rank = (ptr: string): number => {
    for (let p = ptr; ; p = p.slice(0, p.lastIndexOf('/'))) {
      const found = order.get(p);
      if (found !== undefined) return found;
      if (p === '') return 0;
    }
  };
  return problems
    .map((problem, index) => ({ problem, index, rank: rank(problem.pointer) }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map(({ problem }) => problem);
}
