/**
 * Server-sent events read as they stream past, one bounded line at a time: a line longer than
 * `maxLineBytes` is skipped (counted), never buffered whole, so an upstream that sends one
 * endless line costs no more memory than the cap. `data:` lines of one event are joined with
 * newlines and handed over at the blank line that ends it (or at the end of the body).
 */
export class SseSplitter {
  private pending: Buffer[] = [];
  private size = 0;
  private skipping = false;
  private event = '';
  private data: string[] = [];
  /** Lines skipped for being longer than the cap. */
  skipped = 0;

  constructor(
    private readonly onEvent: (event: string, data: string) => void,
    private readonly maxLineBytes = 1 << 20,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, start);
      if (nl < 0) {
        this.keep(chunk.subarray(start));
        return;
      }
      this.keep(chunk.subarray(start, nl));
      this.line();
      start = nl + 1;
    }
  }

  /** Call once the body ended: a last event without its blank line is handed over too. */
  end(): void {
    if (this.size > 0 || this.skipping) this.line();
    this.dispatch();
  }

  private keep(part: Buffer): void {
    if (this.skipping || part.length === 0) return;
    if (this.size + part.length > this.maxLineBytes) {
      this.skipping = true;
      this.pending = [];
      this.size = 0;
      return;
    }
    this.pending.push(part);
    this.size += part.length;
  }

  private line(): void {
    const skipped = this.skipping;
    let text = skipped ? '' : Buffer.concat(this.pending, this.size).toString('utf8');
    this.pending = [];
    this.size = 0;
    this.skipping = false;
    if (skipped) {
      this.skipped++;
      return;
    }
    if (text.endsWith('\r')) text = text.slice(0, -1);
    if (text === '') return this.dispatch();
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
  }

  private dispatch(): void {
    if (this.data.length > 0) this.onEvent(this.event, this.data.join('\n'));
    this.event = '';
    this.data = [];
  }
}

/** A JSON object, or null for anything else (the body is the upstream's: never trusted). */
export function parseObject(text: string): Record<string, unknown> | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  return typeof v === 'object' && v !== null && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : null;
}
