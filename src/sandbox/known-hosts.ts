/**
 * The host keys OpenSSH's known_hosts files hold for a host, so that an
 * `ssh://` engine is verified as the Docker CLI's ssh verifies it (dockerode's
 * ssh transport, left alone, accepts any host key). Read: the user's
 * `~/.ssh/known_hosts` and `known_hosts2`, then `/etc/ssh/ssh_known_hosts`
 * and `ssh_known_hosts2`. A host on another port than 22 is spelled
 * `[host]:port`; host patterns may be hashed (`|1|salt|hmac`), hold `*` and
 * `?`, and be negated with `!`. `@revoked` keys are refused;
 * `@cert-authority` lines are not supported (ignored).
 *
 * @example
 * const known = knownHostKeys('10.0.0.7', 2222, knownHostsFiles(homedir()));
 * known.accepts(rawKeyBlob) // true when one of the listed keys, and not revoked
 */
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

export interface KnownHostKeys {
  /** How the host was looked up (`host`, or `[host]:port`). */
  readonly name: string;
  /** The keys listed for it (the raw blobs of ssh's wire format, as the server sends). */
  readonly keys: readonly Buffer[];
  /** Whether `key` is one of them and not revoked. */
  accepts(key: Buffer): boolean;
}

/** The files OpenSSH reads by default, the user's first. */
export function knownHostsFiles(home: string): string[] {
  return [
    path.join(home, '.ssh', 'known_hosts'),
    path.join(home, '.ssh', 'known_hosts2'),
    '/etc/ssh/ssh_known_hosts',
    '/etc/ssh/ssh_known_hosts2',
  ];
}

function wildcard(pattern: string): RegExp {
  const body = pattern
    .split('')
    .map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^${}()|[\]\\]/gu, '\\$&')))
    .join('');
  return new RegExp(`^${body}$`, 'iu');
}

/** Whether one pattern list (the first field of a line) names `name`. */
function patternsMatch(patterns: string, name: string): boolean {
  if (patterns.startsWith('|1|')) {
    const [, , salt, hash] = patterns.split('|');
    if (!salt || !hash) return false;
    const mac = createHmac('sha1', Buffer.from(salt, 'base64')).update(name).digest('base64');
    return mac === hash;
  }
  let matched = false;
  for (const p of patterns.split(',')) {
    if (p.startsWith('!')) {
      if (wildcard(p.slice(1)).test(name)) return false;
    } else if (wildcard(p).test(name)) matched = true;
  }
  return matched;
}

function readLines(file: string): string[] {
  try {
    return readFileSync(file, 'utf8').split('\n');
  } catch {
    return [];
  }
}

/** The keys `files` list for `host` on `port` (see the module's header). */
export function knownHostKeys(host: string, port: number, files: readonly string[]): KnownHostKeys {
  const name = port === 22 ? host : `[${host}]:${port}`;
  const keys: Buffer[] = [];
  const revoked: Buffer[] = [];
  for (const file of files) {
    for (const raw of readLines(file)) {
      const line = raw.trim();
      if (line === '' || line.startsWith('#')) continue;
      const fields = line.split(/\s+/u);
      const marker = fields[0]!.startsWith('@') ? fields.shift() : undefined;
      if (marker === '@cert-authority') continue;
      const [patterns, , blob] = fields;
      if (!patterns || !blob || !patternsMatch(patterns, name)) continue;
      (marker === '@revoked' ? revoked : keys).push(Buffer.from(blob, 'base64'));
    }
  }
  return {
    name,
    keys,
    accepts: (key) => !revoked.some((k) => k.equals(key)) && keys.some((k) => k.equals(key)),
  };
}
