/** Token counts of one model call, as the upstream reported them. */
export interface CallTokens {
  input: number | null;
  output: number | null;
  cacheRead: number | null;
  cacheWrite: number | null;
}

export const NO_TOKENS: CallTokens = {
  input: null,
  output: null,
  cacheRead: null,
  cacheWrite: null,
};

function count(v: unknown): number | null {
  return Number.isSafeInteger(v) && (v as number) >= 0 ? (v as number) : null;
}

/** Reads the usage fields both APIs use into `into` (fields absent leave it unchanged). */
function takeUsage(usage: unknown, into: CallTokens): void {
  if (typeof usage !== 'object' || usage === null) return;
  const u = usage as Record<string, unknown>;
  const input = count(u.input_tokens);
  const output = count(u.output_tokens);
  const read =
    count(u.cache_read_input_tokens) ??
    count((u.input_tokens_details as { cached_tokens?: unknown } | undefined)?.cached_tokens);
  const write = count(u.cache_creation_input_tokens);
  if (input !== null) into.input = input;
  if (output !== null) into.output = output;
  if (read !== null) into.cacheRead = read;
  if (write !== null) into.cacheWrite = write;
}

/**
 * Scans a response body as it streams past for its token usage, keeping at most one line of
 * `maxLineBytes` (a longer line is skipped, never buffered whole). Server-sent events are read
 * line by line (Anthropic: message_start's usage, then message_delta's; OpenAI Responses:
 * response.completed's); a JSON body is read whole up to the same cap.
 */
export class UsageScanner {
  readonly tokens: CallTokens = { ...NO_TOKENS };
  private pending: Buffer[] = [];
  private size = 0;
  private skipping = false;

  constructor(
    private readonly sse: boolean,
    private readonly maxLineBytes = 1 << 20,
  ) {}

  push(chunk: Buffer): void {
    if (!this.sse) {
      this.keep(chunk);
      return;
    }
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

  /** Call once the body ended. */
  end(): CallTokens {
    if (this.sse) this.line();
    else if (!this.skipping) this.json(Buffer.concat(this.pending, this.size).toString('utf8'));
    return this.tokens;
  }

  private keep(part: Buffer): void {
    if (this.skipping) return;
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
    const text = this.skipping ? '' : Buffer.concat(this.pending, this.size).toString('utf8');
    this.pending = [];
    this.size = 0;
    this.skipping = false;
    if (text.startsWith('data:')) this.json(text.slice(5));
  }

  private json(text: string): void {
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch {
      return;
    }
    if (typeof v !== 'object' || v === null) return;
    const e = v as {
      type?: unknown;
      usage?: unknown;
      message?: { usage?: unknown };
      response?: { usage?: unknown };
    };
    if (e.type === 'message_start') takeUsage(e.message?.usage, this.tokens);
    else if (e.type === 'response.completed') takeUsage(e.response?.usage, this.tokens);
    else takeUsage(e.usage, this.tokens); // message_delta, or a whole JSON message
  }
}
