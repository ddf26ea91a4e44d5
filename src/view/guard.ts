import { realpath } from 'node:fs/promises';
import path from 'node:path';

/** Why a path is refused: it leaves the campaign folder, or names what the viewer never serves. */
export type Refusal = 'outside' | 'hidden' | 'malformed';

/** Names a run's or the campaign's id may have: what evalrig itself writes. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,199}$/u;

/** An eval or condition name the viewer takes from a URL: evalrig's own id form, never . or .. */
export function isName(s: string): boolean {
  return NAME.test(s) && s !== '.' && s !== '..';
}

/**
 * The segments of a URL path, each decoded once, or a refusal: an empty, `.` or `..` segment,
 * one holding a slash, a backslash or NUL once decoded, or one that does not decode. Nothing is
 * decoded twice: `%252e%252e` is a file named `%2e%2e`, not a way up.
 */
export function pathSegments(urlPath: string): string[] | Refusal {
  const raw = urlPath.replace(/^\/+/u, '').split('/');
  const out: string[] = [];
  for (const segment of raw) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return 'malformed';
    }
    if (decoded === '' || decoded === '.' || decoded === '..') return 'outside';
    if (/[/\\\0]/u.test(decoded)) return 'outside';
    out.push(decoded);
  }
  return out;
}

/**
 * The file a URL path names under `root`, or a refusal. Hidden names (a leading dot) and the
 * agents' work trees (`work/`) are never served; a path whose real location (symbolic links
 * followed) is not inside the real root is `outside`.
 *
 * @example
 * await resolveInside('/out', '/runs/e/c/run-01/run.json'); // '/out/runs/e/c/run-01/run.json'
 * await resolveInside('/out', '/%2e%2e/etc/passwd');        // 'outside'
 */
export async function resolveInside(root: string, urlPath: string): Promise<string | Refusal> {
  const segments = pathSegments(urlPath);
  if (typeof segments === 'string') return segments;
  if (segments.some((s) => s.startsWith('.')) || segments[0] === 'work') return 'hidden';
  const realRoot = await realpath(root);
  const wanted = path.join(realRoot, ...segments);
  let real: string;
  try {
    real = await realpath(wanted);
  } catch {
    // Nothing there: a plain 404, as long as the name itself stays inside.
    return wanted;
  }
  if (real !== realRoot && !real.startsWith(`${realRoot}${path.sep}`)) return 'outside';
  return real;
}
