import { createHash } from 'node:crypto';

/**
 * Content-addressed blocks of a JSON value: every string, array or object whose JSON is at
 * least `minBytes` long is stored once, as a block named by the sha256 of its content, and
 * the value around it holds the block's id in its place. A Claude Code request repeats the
 * system prompt, the tools and the whole history each time; cut this way, the next request
 * adds only what is new (its last messages, and the short lists that name the rest).
 *
 * A block is `{ id, v, refs }`: `v` the value with each place in `refs` (a path of keys into
 * `v`) holding a block id instead of the value there. Nothing in `v` is read as a reference
 * unless `refs` names its place, so no string an agent sends can pass for one.
 */
export interface Block {
  readonly id: string;
  readonly v: unknown;
  /** Paths into `v` (array indexes, property names) whose value is a block id. */
  readonly refs?: readonly Path[];
  /** `v` lists blocks of arrays whose concatenation is the value (a long array, in chunks). */
  readonly concat?: true;
}

type Path = readonly (string | number)[];

/** The blocks are cut down to this depth; deeper values stay inside their parent's block. */
const MAX_DEPTH = 32;
/**
 * A longer array is kept in chunks of this many items: a history that grows at its end keeps
 * its earlier chunks, so a request names them instead of listing every message again.
 */
const CHUNK = 8;

export interface Split {
  /** The id of the value's own block (the root is always a block). */
  readonly root: string;
  /** Every block of the value, children before parents. */
  readonly blocks: readonly Block[];
}

/**
 * A value cut so far: itself (with ids in place), a block id, where ids sit inside it, and
 * about how long its JSON is (to tell small values from blocks without writing them out).
 */
interface Cut {
  readonly v: unknown;
  readonly ref: boolean;
  readonly paths: readonly Path[];
  readonly size: number;
}

/** A block id in its parent's JSON: 64 hex digits and quotes. */
const REF_SIZE = 66;

/**
 * A block's id: the sha256 of its content, a string's own characters (hashed as they are,
 * never copied into JSON first), any other value's JSON with the places of its references.
 */
function blockOf(v: unknown, refs: readonly Path[], concat = false): Block {
  const hash = createHash('sha256');
  if (typeof v === 'string') hash.update('s').update(v);
  else hash.update(JSON.stringify(refs.length > 0 ? [concat ? 'concat' : 'refs', refs, v] : v));
  const id = hash.digest('hex');
  if (concat) return { id, v, refs, concat: true };
  return refs.length > 0 ? { id, v, refs } : { id, v };
}

/** Where the ids of a child's cut sit, seen from its parent under `key`. */
function pathsUnder(key: string | number, c: Cut): Path[] {
  return c.ref ? [[key]] : c.paths.map((p) => [key, ...p]);
}

/** Cuts `value` (a parsed JSON body) into blocks. */
export function splitJson(value: unknown, minBytes: number): Split {
  const blocks: Block[] = [];
  const keep = (v: unknown, paths: readonly Path[], concat = false): Cut => {
    const b = blockOf(v, paths, concat);
    blocks.push(b);
    return { v: b.id, ref: true, paths: [], size: REF_SIZE };
  };
  const cut = (v: unknown, depth: number): Cut => {
    if (typeof v === 'string') {
      if (v.length * 3 < minBytes && Buffer.byteLength(v) < minBytes) {
        return { v, ref: false, paths: [], size: v.length + 2 };
      }
      return keep(v, []);
    }
    if (typeof v !== 'object' || v === null || depth > MAX_DEPTH) {
      const size = depth > MAX_DEPTH ? (JSON.stringify(v)?.length ?? 4) : String(v).length;
      return { v, ref: false, paths: [], size };
    }
    let copy: unknown;
    const paths: Path[] = [];
    let size = 2;
    if (Array.isArray(v)) {
      const items = v.map((child) => cut(child, depth + 1));
      if (items.length > CHUNK) return chunked(items);
      copy = items.map((c, i) => {
        paths.push(...pathsUnder(i, c));
        size += c.size + 1;
        return c.v;
      });
    } else {
      const o: Record<string, unknown> = {};
      for (const [k, child] of Object.entries(v)) {
        const c = cut(child, depth + 1);
        paths.push(...pathsUnder(k, c));
        size += k.length + 4 + c.size;
        o[k] = c.v;
      }
      copy = o;
    }
    // A small value stays in its parent, the ids inside it named by the parent's paths.
    if (depth > 0 && size < minBytes) return { v: copy, ref: false, paths, size };
    return keep(copy, paths);
  };
  /** A long array as chunks of {@link CHUNK} items, and a block that lists them in order. */
  const chunked = (items: readonly Cut[]): Cut => {
    const ids: string[] = [];
    for (let at = 0; at < items.length; at += CHUNK) {
      const part = items.slice(at, at + CHUNK);
      const c = keep(
        part.map((x) => x.v),
        part.flatMap((x, i) => pathsUnder(i, x)),
      );
      ids.push(c.v as string);
    }
    return keep(
      ids,
      ids.map((_, i) => [i]),
      true,
    );
  };
  const top = cut(value, 0);
  // A root that is a small string or a scalar: a block of its own all the same.
  return { root: top.ref ? (top.v as string) : (keep(top.v, top.paths).v as string), blocks };
}

/** Rebuilds the value of block `id` from `get` (undefined: a block the record lacks). */
export function joinBlocks(
  id: string,
  get: (id: string) => Block | undefined,
  memo?: Map<string, unknown>,
): unknown {
  const rebuild = (at: string, depth: number): unknown => {
    if (memo?.has(at)) return memo.get(at);
    const b = get(at);
    if (!b) throw new Error(`the record lacks block ${at.slice(0, 12)}`);
    if (!b.refs || b.refs.length === 0 || depth > 2 * MAX_DEPTH) return b.v;
    let value: unknown;
    if (b.concat) {
      const parts = (b.v as unknown[]).map((chunk) => rebuild(String(chunk), depth + 1));
      value = parts.flatMap((p) => (Array.isArray(p) ? (p as unknown[]) : []));
    } else {
      value = structuredClone(b.v);
      for (const p of b.refs) replaceAt(value, p, (ref) => rebuild(String(ref), depth + 1));
    }
    memo?.set(at, value);
    return value;
  };
  return rebuild(id, 0);
}

/** Replaces the value at `path` inside `root` (a copy of a block's value) with `f` of it. */
function replaceAt(root: unknown, path: Path, f: (v: unknown) => unknown): void {
  let at = root as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) {
    const next = at?.[key];
    if (typeof next !== 'object' || next === null) return;
    at = next as Record<string | number, unknown>;
  }
  const last = path[path.length - 1];
  if (last === undefined || typeof at !== 'object' || at === null) return;
  at[last] = f(at[last]);
}
