import { SECRET_MARK } from '../flight/index.js';

/**
 * Keeps the host's credentials out of everything the gateway relays to the container. An
 * upstream may echo what it was sent (a key in an error message, a debugging header, a token
 * quoted back mid-stream); the key was added here, so it must leave only toward the upstream.
 *
 * A streamed body is masked as it passes: each chunk is relayed at once but for its last
 * bytes when they could be the start of a secret the next chunk completes. At most
 * `len(secret) - 1` bytes are held back, and only while they match; an SSE chunk ends in a
 * blank line, which starts no key, so a stream is in practice never held.
 *
 * @example
 * const s = new SecretScrubber(['sk-ant-123']);
 * s.push(Buffer.from('{"k":"sk-a')); // '{"k":"' (the 'sk-a' held back)
 * s.push(Buffer.from('nt-123"}')); // '[evalrig: the upstream key was here]"}'
 * s.count; // 1
 */
export class SecretScrubber {
  /** Echoes masked so far (the host saw the upstream send a secret back). */
  count = 0;
  private readonly secrets: readonly Buffer[];
  private readonly longest: number;
  private held: Buffer = EMPTY;

  constructor(secrets: readonly string[]) {
    // Longest first: a secret inside another is masked as the longer one.
    this.secrets = [...new Set(secrets.filter((s) => s !== ''))]
      .map((s) => Buffer.from(s))
      .sort((a, b) => b.length - a.length);
    this.longest = this.secrets[0]?.length ?? 0;
  }

  /** What of `chunk` (after what was held) may be relayed now, masked. */
  push(chunk: Buffer): Buffer {
    if (this.longest === 0) return chunk;
    const data = this.mask(this.held.length === 0 ? chunk : Buffer.concat([this.held, chunk]));
    const hold = this.heldTail(data);
    this.held = hold === 0 ? EMPTY : Buffer.from(data.subarray(data.length - hold));
    return hold === 0 ? data : data.subarray(0, data.length - hold);
  }

  /** The bytes still held at the body's end: no secret began there after all. */
  end(): Buffer {
    const rest = this.held;
    this.held = EMPTY;
    return rest;
  }

  /** `text` (a header, a message) with every secret masked. */
  text(text: string): string {
    if (this.longest === 0) return text;
    let out = text;
    for (const s of this.secrets) {
      const parts = out.split(s.toString());
      this.count += parts.length - 1;
      out = parts.join(SECRET_MARK);
    }
    return out;
  }

  /** `data` with every whole secret masked (the same buffer when none is there). */
  private mask(data: Buffer): Buffer {
    let out = data;
    for (const s of this.secrets) {
      let at = out.indexOf(s);
      if (at < 0) continue;
      const parts: Buffer[] = [];
      let from = 0;
      while (at >= 0) {
        parts.push(out.subarray(from, at), MARK);
        this.count++;
        from = at + s.length;
        at = out.indexOf(s, from);
      }
      parts.push(out.subarray(from));
      out = Buffer.concat(parts);
    }
    return out;
  }

  /** The length of the longest end of `data` that begins some secret (0: none). */
  private heldTail(data: Buffer): number {
    let hold = 0;
    for (const s of this.secrets) {
      const first = s[0]!;
      for (let p = Math.max(0, data.length - s.length + 1); p < data.length - hold; p++) {
        if (data[p] !== first) continue;
        if (data.compare(s, 0, data.length - p, p) === 0) {
          hold = data.length - p;
          break;
        }
      }
    }
    return hold;
  }
}

const MARK = Buffer.from(SECRET_MARK);
const EMPTY = Buffer.alloc(0);
