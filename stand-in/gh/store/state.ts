import { readFileSync, writeFileSync } from 'node:fs';
// The state file's types are generated from ../schemas/state.schema.json: one declaration,
// shared with the host's recorder. `State` is the whole file, `PullRequest` one of its entries.
import type { GhState as State, PullRequest, RepoLabel } from '../schemas/state.js';

export type { State, PullRequest, RepoLabel };

/** A pull request's state as GitHub names it. */
export type PrState = PullRequest['state'];

/** What normalizing a prepared state needs to fill in its gaps. */
export interface StateDefaults {
  now: string;
  author: string;
  urlOf: (n: number) => string;
}

/**
 * Reads the state file, or an empty state when there is none. A prepared state (written by
 * the harness before a run) may leave out `version`, `next_number`, timestamps, `url` and
 * `author`: they are filled in here (max + 1, now, the repository's URL, the user).
 *
 * @throws Error naming the file and the JSON pointer of a malformed entry
 */
export function readState(file: string, defaults: StateDefaults): State {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
      return { version: 1, next_number: 1, pull_requests: [] };
    }
    throw new Error(`gh stand-in: cannot read ${file}: ${(e as Error).message}`, { cause: e });
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new Error(`gh stand-in: ${file} is not JSON: ${(e as Error).message}`, { cause: e });
  }
  return normalizeState(raw, file, defaults);
}

function normalizeState(raw: unknown, file: string, d: StateDefaults): State {
  const bad = (pointer: string, what: string): never => {
    throw new Error(`gh stand-in: ${file} at ${pointer}: ${what}`);
  };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) bad('', 'not an object');
  const obj = raw as Record<string, unknown>;
  const list = obj.pull_requests ?? [];
  if (!Array.isArray(list)) return bad('/pull_requests', 'not an array');
  const prs = list.map((p: unknown, i): PullRequest => {
    const at = `/pull_requests/${i}`;
    if (typeof p !== 'object' || p === null) return bad(at, 'not an object');
    const r = p as Record<string, unknown>;
    const str = (k: string, fallback?: string): string => {
      const v = r[k] ?? fallback;
      if (typeof v !== 'string') return bad(`${at}/${k}`, 'missing or not a string');
      return v;
    };
    const number = r.number;
    if (typeof number !== 'number' || !Number.isInteger(number) || number < 1) {
      return bad(`${at}/number`, 'missing or not a positive integer');
    }
    const state = r.state ?? 'OPEN';
    if (state !== 'OPEN' && state !== 'CLOSED' && state !== 'MERGED') {
      return bad(`${at}/state`, 'not one of OPEN, CLOSED, MERGED');
    }
    const draft = r.draft ?? false;
    if (typeof draft !== 'boolean') return bad(`${at}/draft`, 'not a boolean');
    const created = str('created_at', d.now);
    const names = (k: 'labels' | 'assignees'): { [key: string]: string[] } => {
      const v = r[k];
      if (v === undefined) return {};
      if (!Array.isArray(v) || !v.every((x) => typeof x === 'string' && x !== '')) {
        return bad(`${at}/${k}`, 'not an array of non-empty strings');
      }
      return v.length > 0 ? { [k]: v as string[] } : {};
    };
    return {
      number,
      title: str('title'),
      body: str('body', ''),
      head: str('head'),
      base: str('base', 'main'),
      draft,
      state,
      created_at: created,
      updated_at: str('updated_at', created),
      url: str('url', d.urlOf(number)),
      author: str('author', d.author),
      ...names('labels'),
      ...names('assignees'),
    };
  });
  const seen = new Map<number, number>();
  prs.forEach((p, i) => {
    const first = seen.get(p.number);
    if (first !== undefined)
      bad(`/pull_requests/${i}/number`, `${p.number} is also /pull_requests/${first}/number`);
    seen.set(p.number, i);
  });
  const max = prs.reduce((m, p) => Math.max(m, p.number), 0);
  const next = obj.next_number;
  if (next !== undefined && (typeof next !== 'number' || !Number.isInteger(next))) {
    bad('/next_number', 'not an integer');
  }
  return {
    version: 1,
    next_number: Math.max(typeof next === 'number' ? next : 0, max + 1),
    ...(obj.labels === undefined ? {} : { labels: repoLabels(obj.labels, bad) }),
    pull_requests: prs,
  };
}

/** The state's own labels: `[{ "name", "description"?, "color"? }]`, names unique regardless of case. */
function repoLabels(raw: unknown, bad: (pointer: string, what: string) => never): RepoLabel[] {
  if (!Array.isArray(raw)) return bad('/labels', 'not an array');
  const seen = new Map<string, number>();
  return raw.map((l: unknown, i): RepoLabel => {
    const at = `/labels/${i}`;
    if (typeof l !== 'object' || l === null) return bad(at, 'not an object');
    const { name, description, color } = l as Record<string, unknown>;
    if (typeof name !== 'string' || name === '') return bad(`${at}/name`, 'missing or empty');
    const first = seen.get(name.toLowerCase());
    if (first !== undefined) bad(`${at}/name`, `${name} is also /labels/${first}/name`);
    seen.set(name.toLowerCase(), i);
    if (description !== undefined && typeof description !== 'string') {
      return bad(`${at}/description`, 'not a string');
    }
    if (color !== undefined && (typeof color !== 'string' || !/^[0-9a-fA-F]{6}$/.test(color))) {
      return bad(`${at}/color`, 'not six hex digits');
    }
    return {
      name,
      ...(description === undefined ? {} : { description }),
      ...(color === undefined ? {} : { color }),
    };
  });
}

/** The text of a state file as the stand-in writes it (pretty-printed). */
export function stateText(state: State): string {
  return JSON.stringify(state, null, 2) + '\n';
}

/** Writes a state file in place (callers write a pending file, then rename it: see Store). */
export function writeState(file: string, state: State): void {
  writeFileSync(file, stateText(state), { flag: 'wx' });
}
