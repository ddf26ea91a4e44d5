/**
 * Go's `%q` of a string (strconv.Quote): double quotes, backslash escapes for quotes,
 * backslashes and control characters; printable characters, non-ASCII included, kept as is.
 *
 * @example goQuote('a "b"\t') // '"a \\"b\\"\\t"'
 */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (c >= 0x20 && c !== 0x7f && !(c >= 0x80 && c < 0xa0)) out += ch;
    else out += ESCAPES[ch] ?? (c < 0x80 ? `\\x${hex(c, 2)}` : `\\u${hex(c, 4)}`);
  }
  return out + '"';
}

const ESCAPES: Record<string, string> = {
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
};

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, '0');
}
