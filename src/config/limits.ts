/**
 * Bounds on what an eval set may be, checked before anything else reads it,
 * so that no file (however large or deeply nested) can exhaust the stack or
 * the memory of `evalrig validate` or `evalrig run`.
 */
import { pointer, type Problem } from './problems.js';

/** An eval set is a few kilobytes; anything this large is a mistake (or an attack). */
export const MAX_FILE_BYTES = 4 * 1024 ** 2;

/**
 * Containers (objects, arrays) nested deeper than this are refused before the
 * file is parsed. The deepest a valid eval set goes is 6 (a seeded pull
 * request: root, evals, eval, start, pull_requests, pull request).
 */
export const MAX_DEPTH = 32;

interface Frame {
  readonly kind: 'object' | 'array';
  /** Index of the current element (arrays). */
  index: number;
  /** Name of the current member (objects), once read. */
  key: string;
  /** Objects: the next string is a member name. */
  expectsKey: boolean;
}

/**
 * Where JSON text nests containers deeper than {@link MAX_DEPTH}, as a problem
 * at the JSON pointer of the first container too deep; undefined when it does
 * not. A single pass over the text holding at most MAX_DEPTH frames: it never
 * builds the document (a parse of millions of nested arrays takes seconds and
 * hundreds of megabytes). Text that is not JSON is left to the parser.
 */
export function tooDeep(text: string): Problem | undefined {
  const stack: Frame[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const end = endOfString(text, i);
      const top = stack[stack.length - 1];
      if (top?.kind === 'object' && top.expectsKey) {
        top.key = decodeString(text.slice(i, end + 1));
        top.expectsKey = false;
      }
      i = end;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (stack.length >= MAX_DEPTH) {
        return {
          pointer: pointer(...stack.map((f) => (f.kind === 'array' ? f.index : f.key))),
          message: `nested deeper than ${MAX_DEPTH} levels of objects and arrays; no field of an eval set is`,
        };
      }
      stack.push({ kind: c === 0x7b ? 'object' : 'array', index: 0, key: '', expectsKey: true });
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
    } else if (c === 0x2c /* , */) {
      const top = stack[stack.length - 1];
      if (top?.kind === 'array') top.index++;
      else if (top) top.expectsKey = true;
    }
  }
  return undefined;
}

/** Index of the quote closing the string opened at `start` (or the text's end). */
function endOfString(text: string, start: number): number {
  for (let j = start + 1; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === 0x5c /* \ */) j++;
    else if (c === 0x22) return j;
  }
  return text.length - 1;
}

function decodeString(quoted: string): string {
  try {
    return String(JSON.parse(quoted));
  } catch {
    return quoted.slice(1, -1);
  }
}

/**
 * Entries (array items, object members) one container may hold, and values a
 * whole eval set may hold. An eval set lists tens or hundreds of evals, a few
 * thousand values; hundreds of thousands of wrong ones would only make the
 * report of them slow (each costs the schema a few microseconds).
 */
export const MAX_ENTRIES = 10_000;
export const MAX_VALUES = 200_000;

/**
 * Every container of a parsed document holding more than {@link MAX_ENTRIES}
 * entries, at its pointer, or the whole document when it holds more than
 * {@link MAX_VALUES} values; empty when it fits.
 */
export function tooWide(doc: unknown): Problem[] {
  const problems: Problem[] = [];
  let values = 0;
  // Iterative: the depth is bounded by tooDeep already, but a walk needs no stack to be safe.
  const queue: [unknown, (string | number)[]][] = [[doc, []]];
  while (queue.length > 0) {
    const [value, at] = queue.pop()!;
    if (++values > MAX_VALUES) {
      return [
        {
          pointer: '',
          message: `holds more than ${MAX_VALUES} values; an eval set holds a few thousand`,
        },
      ];
    }
    if (value === null || typeof value !== 'object') continue;
    const children: [string | number, unknown][] = Array.isArray(value)
      ? value.map((item, index) => [index, item])
      : Object.entries(value);
    if (children.length > MAX_ENTRIES) {
      problems.push({
        pointer: pointer(...at),
        message: `holds ${children.length} ${Array.isArray(value) ? 'items' : 'fields'}; at most ${MAX_ENTRIES}`,
      });
      continue;
    }
    for (const [key, child] of children) queue.push([child, [...at, key]]);
  }
  return problems;
}
