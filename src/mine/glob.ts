/**
 * Path globs as git and most tools write them: `*` within a folder, `**` across folders,
 * `?` one character, `{a,b}` either. A glob with no slash matches a file's name at any depth
 * (as .gitignore does), so `*.test.js` finds `lib/a.test.js`.
 */

/** A glob as a RegExp over a slash-separated path relative to the repository's root. */
export function globToRegExp(glob: string): RegExp {
  const anchored = glob.includes('/') ? glob.replace(/^\/+/u, '') : `**/${glob}`;
  let out = '';
  for (let i = 0; i < anchored.length; i++) {
    const c = anchored[i]!;
    if (c === '*' && anchored[i + 1] === '*') {
      // `**/` matches no folder or several; a trailing `**` matches everything below.
      if (anchored[i + 2] === '/') {
        out += '(?:.*/)?';
        i += 2;
      } else {
        out += '.*';
        i += 1;
      }
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '{') {
      const end = anchored.indexOf('}', i);
      if (end < 0) out += '\\{';
      else {
        out += `(?:${anchored
          .slice(i + 1, end)
          .split(',')
          .map(escape)
          .join('|')})`;
        i = end;
      }
    } else out += escape(c);
  }
  // A folder matches what is under it too: `test` or `test/` takes `test/a.js`.
  return new RegExp(`^${out.replace(/\/$/u, '')}(?:/.*)?$`, 'u');
}

const escape = (s: string): string => s.replace(/[.+^$()|[\]\\]/gu, '\\$&');

/** Whether `path` matches one of `globs`. */
export function matchesAny(path: string, globs: readonly RegExp[]): boolean {
  return globs.some((g) => g.test(path));
}
