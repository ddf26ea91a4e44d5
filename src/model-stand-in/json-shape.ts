// Words for checking a JSON document by hand. Standard library only, and
// importing nothing: the stand-in programs (bundled on their own) use it too.
// Kept beside the model script it checks, below config/ (which reads the
// script to validate an eval set), so no import runs up to config/.

/** One JSON pointer step for `key`, escaped (RFC 6901): token('a/b') -> "/a~1b". */
export function token(key: string | number): string {
  return `/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

/** What a JSON value is, in words for a message: "null", "an array", "a string". */
export function kind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** A JSON object (not null, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
