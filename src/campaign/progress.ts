/** Formats a duration in seconds as 1h02m, 3m05s or 12s. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const r = s % 60;
  if (h > 0) return `${h}h${String(m).padStart(2, '0')}m`;
  if (m > 0) return `${m}m${String(r).padStart(2, '0')}s`;
  return `${r}s`;
}

export interface ProgressCounts {
  readonly total: number;
  readonly done: number;
  readonly failed: number;
  readonly skipped: number;
}

/**
 * The campaign's progress: one updating line on a terminal (done/total,
 * failed, elapsed, remaining), plain lines otherwise (one per finished run).
 */
export class Progress {
  private done = 0;
  private failed = 0;
  private readonly started = Date.now();
  private readonly tty: boolean;

  constructor(
    private readonly total: number,
    private readonly skipped: number,
    private readonly stream: NodeJS.WriteStream = process.stderr,
  ) {
    this.tty = Boolean(stream.isTTY) && process.env.CI === undefined;
  }

  counts(): ProgressCounts {
    return { total: this.total, done: this.done, failed: this.failed, skipped: this.skipped };
  }

  private line(): string {
    const elapsed = (Date.now() - this.started) / 1000;
    const left = this.total - this.done;
    const remaining = this.done > 0 ? formatDuration((elapsed / this.done) * left) : '?';
    return `[${this.done}/${this.total}] failed ${this.failed} · elapsed ${formatDuration(elapsed)} · remaining ~${remaining}`;
  }

  start(): void {
    const skip = this.skipped > 0 ? ` (${this.skipped} already finished, skipped)` : '';
    this.stream.write(`evalrig: ${this.total} run(s) to play${skip}\n`);
    if (this.tty) this.stream.write(this.line());
  }

  /** A message that must not be overwritten by the progress line. */
  note(text: string): void {
    if (this.tty) this.stream.write(`\r\x1b[2K${text}\n${this.line()}`);
    else this.stream.write(`${text}\n`);
  }

  finished(key: string, status: string, seconds: number, failed: boolean): void {
    this.done++;
    if (failed) this.failed++;
    const text = `${key}: ${status} (${formatDuration(seconds)})`;
    if (this.tty) this.stream.write(`\r\x1b[2K${failed ? text + '\n' : ''}${this.line()}`);
    else this.stream.write(`${this.line()} ${text}\n`);
  }

  end(): void {
    if (this.tty) this.stream.write('\n');
  }
}
