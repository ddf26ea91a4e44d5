import type { ServerResponse } from 'node:http';
import { APP_CSP, baseHeaders } from './headers.js';
import { benchmarkChanged, runFolderStamps } from '../trajectory/source.js';
import { runRow, type RunRow } from './rows.js';

/** How far back a scan looks past the previous one: a folder's time is not exact. */
const SLACK_MS = 2000;

/**
 * Tells the open pages, by server-sent events, what changed in the campaign folder while
 * `evalrig run` plays into it: a run that finished (`run`, its row) and a new benchmark.json
 * (`benchmark`). It polls only while a page listens, and holds no run: each scan lists the
 * run folders one directory at a time and reads only those that changed since the last.
 */
export class LiveFeed {
  private readonly clients = new Set<ServerResponse>();
  private timer: NodeJS.Timeout | undefined;
  private scanning = false;
  private since = Date.now();
  private benchmarkMs: number | null | undefined;
  /** Runs told in the last few seconds (their folder's time), so a slack rescan tells none twice. */
  private recent = new Map<string, number>();

  constructor(
    private readonly outDir: string,
    private readonly pollMs: number,
  ) {}

  /** Keeps `res` open as an event stream until the page goes. */
  add(res: ServerResponse): void {
    res.writeHead(200, {
      ...baseHeaders(APP_CSP),
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
    });
    res.write(': evalrig view\n\n');
    this.clients.add(res);
    res.on('close', () => {
      this.clients.delete(res);
      if (this.clients.size === 0) this.stop();
    });
    if (!this.timer) {
      this.since = Date.now() - SLACK_MS;
      this.timer = setInterval(() => void this.scan(), this.pollMs);
    }
  }

  private stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Ends every stream (the server is closing). */
  close(): void {
    this.stop();
    for (const res of this.clients) res.end();
    this.clients.clear();
  }

  private send(event: string, data: unknown): void {
    const text = `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
    for (const res of this.clients) res.write(text);
  }

  private async scan(): Promise<void> {
    if (this.scanning) return;
    this.scanning = true;
    const started = Date.now();
    try {
      const after = this.since - SLACK_MS;
      for await (const stamp of runFolderStamps(this.outDir)) {
        if (stamp.changedMs < after) continue;
        const key = `${stamp.eval}\0${stamp.condition}\0${stamp.run}`;
        if (this.recent.get(key) === stamp.changedMs) continue;
        const row: RunRow | null = await runRow(
          this.outDir,
          stamp.eval,
          stamp.condition,
          stamp.run,
        );
        if (row === null) continue;
        this.recent.set(key, stamp.changedMs);
        this.send('run', row);
      }
      const bench = await benchmarkChanged(this.outDir);
      if (this.benchmarkMs !== undefined && bench !== this.benchmarkMs) this.send('benchmark', {});
      this.benchmarkMs = bench;
      for (const [key, ms] of this.recent) if (ms < after) this.recent.delete(key);
      this.since = started;
    } catch {
      // A folder removed mid-scan: the next scan sees the folder as it is then.
    } finally {
      this.scanning = false;
    }
  }
}
