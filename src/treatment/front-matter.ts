import { parse } from 'yaml';

/** A file's front matter read: its string fields, its text, and the body after it. */
export interface FrontMatter {
  /** Top-level fields whose values are strings (or numbers and booleans, as text). */
  readonly fields: Readonly<Record<string, string>>;
  /** The YAML between the `---` lines, as written. */
  readonly raw: string;
  readonly body: string;
  /** The file opens with `---` … `---`. */
  readonly frontMatter: boolean;
  /** Why the YAML could not be read (its fields are then empty), or null. */
  readonly problem: string | null;
}

/**
 * A file's YAML front matter, read by a YAML parser as the agents read it: quoting and
 * escapes undone (`"…\"quoted\"… \u2713"`), folded and literal blocks joined.
 */
export function frontMatterOf(text: string): FrontMatter {
  const m = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/u.exec(text.replace(/^\uFEFF/u, ''));
  if (!m) return { fields: {}, raw: '', body: text, frontMatter: false, problem: null };
  const raw = m[1]!.replace(/\r\n/gu, '\n');
  const body = text.replace(/^\uFEFF/u, '').slice(m[0].length);
  let value: unknown;
  try {
    value = parse(raw, { maxAliasCount: 100 });
  } catch (e) {
    const problem = String((e as Error).message)
      .split('\n')[0]!
      .slice(0, 200);
    return { fields: {}, raw, body, frontMatter: true, problem };
  }
  const fields: Record<string, string> = {};
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) {
      if (['string', 'number', 'boolean'].includes(typeof v)) fields[k] = String(v).trim();
    }
  }
  return { fields, raw, body, frontMatter: true, problem: null };
}
