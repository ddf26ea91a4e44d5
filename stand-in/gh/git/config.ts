/**
 * A small reader of git's config file format, enough for `remote.<name>.url` and
 * `branch.<name>.gh-merge-base`. Reading the file ourselves spares a git subprocess on the
 * hot path (`pr list`), which is most of the stand-in's cost otherwise.
 */

/** Config entries keyed `section.subsection.key` (section and key lower-cased). */
export type GitConfig = Map<string, string[]>;

/** Parses the text of a git config file. Includes are not followed. */
export function parseGitConfig(text: string): GitConfig {
  const out: GitConfig = new Map();
  let section = '';
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]/.exec(line);
    if (header) {
      const name = (header[1] ?? '').toLowerCase();
      const sub = header[2]?.replace(/\\(.)/g, '$1');
      section = sub === undefined ? name : `${name}.${sub}`;
      continue;
    }
    const kv = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/.exec(line);
    if (!kv || section === '') continue;
    const key = `${section}.${(kv[1] ?? '').toLowerCase()}`;
    const value = kv[2] === undefined ? 'true' : unquote(kv[2]);
    const list = out.get(key);
    if (list) list.push(value);
    else out.set(key, [value]);
  }
  return out;
}

function unquote(value: string): string {
  let out = '';
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === '"') quoted = !quoted;
    else if (c === '\\' && i + 1 < value.length) {
      const n = value[++i];
      out += n === 'n' ? '\n' : n === 't' ? '\t' : n;
    } else if (!quoted && (c === '#' || c === ';')) break;
    else out += c;
  }
  return quoted ? out : out.trimEnd();
}

/** The last value of a key, as git reads it. */
export function configValue(config: GitConfig, key: string): string | undefined {
  const list = config.get(key);
  return list?.[list.length - 1];
}
