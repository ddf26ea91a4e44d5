/**
 * A provider's lifecycle, after Inspect AI's SandboxEnvironment: `open` is its
 * task_init (the engine watched, a reaper standing by before the first
 * container), `start` and a sandbox's `remove` are sample_init and
 * sample_cleanup, `close` is task_cleanup (creations stopped, what it started
 * removed, the watch and the reaper let go) and `reap` is cli_cleanup.
 *
 * One engine's share of that lives here ({@link EngineTenancy}), so the local
 * and the remote provider hold it the same way and a pool opens and closes its
 * members with it.
 */
import path from 'node:path';
import {
  LABELS,
  startReaper,
  sweepStaleScratch,
  watchEngine,
  type DockerClient,
  type Reaper,
} from '../runtime/index.js';
import { SandboxError } from './errors.js';
import type { OpenOptions, Sandbox } from './types.js';
import { WrappedSandbox } from './wrapped.js';

/** A sandbox asked of a provider that was closed: a clear refusal, nothing started. */
export class ProviderClosedError extends SandboxError {
  constructor(provider: string) {
    super(provider, 'start', 'the provider is closed: it starts no new sandbox');
  }
}

/** Times `close` lists and removes what is left before it gives the rest to the reaper. */
const CLOSE_SWEEPS = 50;

/**
 * One engine as a provider holds it between open and close: its watch, its
 * reaper (by the client's session label: with none, no reaper, since a reaper
 * by evalrig's label alone would take other processes' containers), and the
 * sandboxes started and not removed yet.
 */
export class EngineTenancy {
  private opened = false;
  private closing: Promise<void> | undefined;
  private readonly live = new Set<Sandbox>();
  private stopWatch: (() => void) | undefined;
  private reaper: Reaper | undefined;

  constructor(
    private readonly client: DockerClient,
    private readonly name: string,
    private readonly reap: (labels: Readonly<Record<string, string>>) => Promise<number>,
  ) {}

  /** The session label this engine's sandboxes carry, when it has one. */
  private get session(): Readonly<Record<string, string>> | undefined {
    const session = this.client.labels?.[LABELS.session];
    return session ? { [LABELS.session]: session } : undefined;
  }

  /**
   * Starts the watch and the reaper (where it can reach the engine: `local`
   * says the default socket is this engine's when the client names no
   * endpoint). Idempotent; refused once closed.
   */
  open(options: OpenOptions, local: boolean): void {
    if (this.closing) throw new ProviderClosedError(this.name);
    if (this.opened) return;
    this.opened = true;
    const session = this.session;
    if (session && (this.client.endpoint || local)) {
      this.reaper = startReaper(this.client, session, {
        scratch: options.scratch,
        mounts: options.mounts,
        mountsOwner: options.mountsOwner,
      });
    }
    if (options.scratch) sweepStaleScratch(path.dirname(options.scratch));
    this.stopWatch = watchEngine(this.client, options.watch);
  }

  /** Throws {@link ProviderClosedError} once closed: checked before each start. */
  admit(): void {
    if (this.closing) throw new ProviderClosedError(this.name);
  }

  /** The sandbox, kept until its removal so that `close` removes it when its caller did not. */
  track(sandbox: Sandbox): Sandbox {
    const tracked = new TrackedSandbox(sandbox, () => this.live.delete(tracked));
    this.live.add(tracked);
    // Closed while it was starting: it goes at once.
    if (this.closing) {
      void tracked.remove().catch(() => undefined);
      throw new ProviderClosedError(this.name);
    }
    return tracked;
  }

  /**
   * Stops creations (those in flight land first), removes the sandboxes still
   * live and whatever else carries the session label, then lets the watch and
   * the reaper go. Idempotent: a second call waits for the first.
   */
  close(): Promise<void> {
    this.closing ??= this.closeOnce();
    return this.closing;
  }

  private async closeOnce(): Promise<void> {
    try {
      this.client.gate?.close();
      await this.client.gate?.settled();
      await Promise.all([...this.live].map((s) => s.remove().catch(() => undefined)));
      const session = this.session;
      // A container whose removal another call started (409) is listed until it ends.
      for (let i = 0; session && !this.client.health?.lost && i < CLOSE_SWEEPS; i++) {
        const removed = await this.reap(session).catch(() => 0);
        if (removed === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      this.stopWatch?.();
      this.reaper?.release();
    }
  }
}

/** A sandbox whose removal tells its provider it is gone. */
class TrackedSandbox extends WrappedSandbox {
  constructor(
    inner: Sandbox,
    private readonly gone: () => void,
  ) {
    super(inner);
  }

  override async remove(): Promise<void> {
    await this.inner.remove();
    this.gone();
  }
}
