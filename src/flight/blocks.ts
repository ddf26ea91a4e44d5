import { createHash } from 'node:crypto';

/**
 * Content-addressed blocks of a JSON value: every string, array or object whose JSON is at
 * least `minBytes` long is stored once, as a block named by the sha256 of its content, and
 * its parent holds the block's id in its place. A Claude Code request repeats the system
 * prompt, the tools and the whole history each time; cut this way, the next request adds
 * only what is new (the last messages, and the small arrays that list the rest).
 *
 * A block is `{ id, v, refs }`: `v` the value with each child in `refs` (keys of `v`) replaced
 * by that child's block id. Nothing in `v` is ever read as a reference unless `refs` names
 * it, so no string an agent sends can pass for one.
 */
export interface Block {
  readonly id: string;
  readonly v: unknown;
  /** Keys of `v` (array indexes or property names) whose value is a block id. */
  readonly refs?: readonly (string | number)[];
}

/** The blocks are cut down to this depth; deeper values stay inside their parent's block. */
const MAX_DEPTH = 32;

export interface Split {
  /** The id of the value's own block (the root is always a block). */
  readonly root: string;
  /** Every block of the value, children before parents. */
  readonly blocks: readonly Block[];
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

function blockOf(v: unknown, refs: (string | number)[]): Block {
  const text = JSON.stringify(refs.length > 0 ? [refs, v] : v);
  const id = sha256(text);
  return refs.length > 0 ? { id, v, refs } : { id, v };
}

/**
 * Cuts `value` (a parsed JSON body) into blocks. `onString` sees every string of it once, with
 * its block's id when it is a block of its own (for the treatment check's search).
 */
export function splitJson(
  value: unknown,
  minBytes: number,
  onString?: (s: string, id: string | null) => void,
): Split {
  const blocks: Block[] = [];
  const cut = (v: unknown, depth: number): { v: unknown; ref: boolean } => {
    if (typeof v === 'string') {
      if (v.length * 3 < minBytes && Buffer.byteLength(v) < minBytes) {
        onString?.(v, null);
        return { v, ref: false };
      }
      const b = blockOf(v, []);
      onString?.(v, b.id);
      blocks.push(b);
      return { v: b.id, ref: true };
    }
    if (typeof v !== 'object' || v === null || depth > MAX_DEPTH) {
      if (depth > MAX_DEPTH) visitStrings(v, onString);
      return { v, ref: false };
    }
    const refs: (string | number)[] = [];
    let copy: unknown;
    if (Array.isArray(v)) {
      copy = v.map((child, i) => {
        const c = cut(child, depth + 1);
        if (c.ref) refs.push(i);
        return c.v;
      });
    } else {
      const o: Record<string, unknown> = {};
      for (const [k, child] of Object.entries(v)) {
        const c = cut(child, depth + 1);
        if (c.ref) refs.push(k);
        o[k] = c.v;
      }
      copy = o;
    }
    // A small value with no block below it stays in its parent (a parent names only its own children).
    if (depth > 0 && refs.length === 0 && JSON.stringify(copy).length < minBytes) {
      return { v: copy, ref: false };
    }
    const b = blockOf(copy, refs);
    blocks.push(b);
    return { v: b.id, ref: true };
  };
  const top = cut(value, 0);
  if (!top.ref) {
    // A root that is a small string or a scalar: a block of its own all the same.
    const b = blockOf(top.v, []);
    blocks.push(b);
    return { root: b.id, blocks };
  }
  return { root: top.v as string, blocks };
}

/** Every string below `v` (a subtree kept whole), without recursion: it may be deep. */
function visitStrings(v: unknown, onString?: (s: string, id: string | null) => void): void {
  if (!onString) return;
  const stack: unknown[] = [v];
  let seen = 0;
  while (stack.length > 0 && seen++ < 1_000_000) {
    const x = stack.pop();
    if (typeof x === 'string') onString(x, null);
    else if (typeof x === 'object' && x !== null) stack.push(...Object.values(x));
  }
}

/** Rebuilds the value of block `id` from `get` (undefined: a block the record lacks). */
export function joinBlocks(id: string, get: (id: string) => Block | undefined): unknown {
  const rebuild = (at: string, depth: number): unknown => {
    const b = get(at);
    if (!b) throw new Error(`the record lacks block ${at.slice(0, 12)}`);
    if (!b.refs || b.refs.length === 0 || depth > MAX_DEPTH + 2) return b.v;
    const copy = (Array.isArray(b.v) ? [...(b.v as unknown[])] : { ...(b.v as object) }) as Record<
      string | number,
      unknown
    >;
    for (const key of b.refs) copy[key] = rebuild(String(copy[key]), depth + 1);
    return copy;
  };
  return rebuild(id, 0);
}
