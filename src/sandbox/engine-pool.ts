/**
 * Several engines as one provider: a campaign's runs are spread over them by
 * free slots (`slots` each, `--jobs` per engine), images are built on the
 * first and shipped to the others once, and an engine that stops answering
 * takes only its own sandboxes with it: no sandbox starts there any more,
 * its runs in flight fail on their next call (the campaign records them as
 * failed with their phase, and a resume replays them on an engine that
 * answers), the others go on.
 *
 * The pool mounts host folders only when every member does, so a campaign
 * hands its trees over the same way whichever engine a run lands on.
 *
 * @example
 * const pool = new EnginePool([
 *   { provider: new RemoteDockerProvider({ client: a }), slots: 2 },
 *   { provider: new RemoteDockerProvider({ client: b }), slots: 2 },
 * ]);
 */
import type { DockerClient } from '../runtime/index.js';
import type { EngineDescription, PreflightResult, PreflightSpec } from './engine-check.js';
import { shipBaseImage } from './build-engine.js';
import { connectEngine, type EngineAddress } from './engines.js';
import { dockerImageBuilder } from './docker-builder.js';
import { SandboxError } from './errors.js';
import { ProviderClosedError } from './lifecycle.js';
import type { ImageBuilder, OpenOptions } from './types.js';
import { WrappedSandbox } from './wrapped.js';
import { LocalDockerProvider, RemoteDockerProvider } from './docker/index.js';
import type {
  BaseImageState,
  ReserveSpec,
  Sandbox,
  SandboxImage,
  SandboxProvider,
  SandboxReservation,
  SandboxSpec,
} from './types.js';

export interface PoolMember {
  readonly provider: SandboxProvider;
  /** Sandboxes at once on this engine (the campaign's `--jobs` per engine). */
  readonly slots: number;
}

interface Seat {
  readonly provider: SandboxProvider;
  readonly slots: number;
  busy: number;
  /** Set when a start failed for the engine, or it says it is lost. */
  down: Error | undefined;
}

export class EnginePool implements SandboxProvider {
  readonly name: string;
  readonly mountsHostFolders: boolean;
  private readonly seats: Seat[];
  private closed = false;

  constructor(members: readonly PoolMember[]) {
    if (members.length === 0) throw new Error('an engine pool needs at least one engine');
    this.seats = members.map((m) => ({
      provider: m.provider,
      slots: Math.max(1, m.slots),
      busy: 0,
      down: undefined,
    }));
    this.name = members.map((m) => m.provider.name).join(' + ');
    this.mountsHostFolders = members.every((m) => m.provider.mountsHostFolders);
  }

  /** Every member's slots: the campaign's `--jobs` over all engines. */
  get slots(): number {
    return this.seats.reduce((n, s) => n + s.slots, 0);
  }

  /**
   * Every member opened: the first with the orchestrator's scratch and mounts
   * for its reaper, the others with their own watch and reaper alone.
   */
  async open(options: OpenOptions = {}): Promise<void> {
    if (this.closed) throw new ProviderClosedError(this.name);
    const { watch } = options;
    await Promise.all(
      this.seats.map((s, i) => s.provider.open(i === 0 ? options : watch ? { watch } : {})),
    );
  }

  /** Every member closed at once: one engine that does not answer holds up only its own part. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.seats.map((s) => s.provider.close().catch(() => undefined)));
  }

  /** The Docker clients of the members that have one, in order (the first is the campaign's). */
  dockerClients(): readonly DockerClient[] {
    return this.seats.flatMap((s) => s.provider.dockerClients?.() ?? []);
  }

  /** Images are built on the first engine; the others receive them by {@link ensureImage}. */
  /** Its first engine builds; ensureImage ships the builds to the engines that run them. */
  imageBuilder(): ImageBuilder {
    return dockerImageBuilder(this);
  }

  buildImage<T>(what: string, build: (engine: DockerClient) => Promise<T>): Promise<T> {
    const first = this.seats[0]!.provider;
    if (!first.buildImage)
      throw new SandboxError(this.name, 'build', `${first.name} builds no images`);
    return first.buildImage(what, build);
  }

  /** The base image on the first engine, shipped from another member or the machine's engine. */
  ensureBaseImage(tag: string, log: NodeJS.WritableStream): Promise<BaseImageState> {
    const [first, ...others] = this.dockerClients();
    return shipBaseImage(first!, others, tag, log);
  }

  /** How many sandboxes each engine holds now (for tests and progress). */
  load(): Array<{ readonly name: string; readonly busy: number; readonly down: boolean }> {
    return this.seats.map((s) => ({ name: s.provider.name, busy: s.busy, down: this.isDown(s) }));
  }

  private isDown(seat: Seat): boolean {
    seat.down ??= seat.provider.lost?.();
    return seat.down !== undefined;
  }

  async check(): Promise<void> {
    await Promise.all(this.seats.map((s) => s.provider.check()));
  }

  /** Present on the first engine (built there); shipped from it to the others that lack it. */
  async ensureImage(image: SandboxImage, from?: SandboxProvider): Promise<void> {
    const [first, ...rest] = this.seats;
    await first!.provider.ensureImage(image, from);
    const source = from ?? first!.provider;
    for (const seat of rest) {
      if (!this.isDown(seat)) await seat.provider.ensureImage(image, source);
    }
  }

  /** The engine with the most free room (relative to its slots) that answers. */
  private pick(): Seat {
    const up = this.seats.filter((s) => !this.isDown(s));
    if (up.length === 0) {
      const why = this.seats[0]!.down;
      throw new SandboxError(
        this.name,
        'start',
        `no engine answers any more (${why?.message ?? 'all lost'})`,
      );
    }
    return up.reduce((best, s) => (s.busy / s.slots < best.busy / best.slots ? s : best));
  }

  async start(spec: SandboxSpec): Promise<Sandbox> {
    if (this.closed) throw new ProviderClosedError(this.name);
    const seat = this.pick();
    seat.busy++;
    let sandbox: Sandbox;
    try {
      sandbox = await seat.provider.start(spec);
    } catch (error) {
      seat.busy--;
      this.isDown(seat);
      throw error;
    }
    return new PooledSandbox(sandbox, () => {
      seat.busy--;
    });
  }

  /**
   * The engine with the most free room, taken now (its slot held from here):
   * what the member makes ahead is made there, and the start lands there.
   */
  reserve(ahead: ReserveSpec): SandboxReservation {
    if (this.closed) throw new ProviderClosedError(this.name);
    const seat = this.pick();
    seat.busy++;
    let freed = false;
    const free = (): void => {
      if (freed) return;
      freed = true;
      seat.busy--;
    };
    let inner: SandboxReservation;
    try {
      inner = seat.provider.reserve?.(ahead) ?? {
        start: (spec) => seat.provider.start(spec),
        release: () => Promise.resolve(),
        made: Promise.resolve(),
      };
    } catch (error) {
      free();
      throw error;
    }
    let started = false;
    return {
      made: inner.made,
      start: async (spec) => {
        started = true;
        try {
          return new PooledSandbox(await inner.start(spec), free);
        } catch (error) {
          free();
          this.isDown(seat);
          throw error;
        }
      },
      release: async () => {
        if (started) return;
        started = true;
        free();
        await inner.release();
      },
    };
  }

  /** The first member's refusal: a run may land on any of them. */
  servicesRefusal(): string | undefined {
    for (const s of this.seats) {
      const why = s.provider.servicesRefusal
        ? s.provider.servicesRefusal()
        : 'it cannot start services';
      if (why) return `${s.provider.name}: ${why}`;
    }
    return undefined;
  }

  /** Set only when no engine answers any more: one engine lost fails only its own runs. */
  lost(): Error | undefined {
    return this.seats.every((s) => this.isDown(s)) ? this.seats[0]!.down : undefined;
  }

  async reap(labels: Readonly<Record<string, string>>): Promise<number> {
    const counts = await Promise.all(
      this.seats.map((s) => (this.isDown(s) ? 0 : s.provider.reap(labels).catch(() => 0))),
    );
    return counts.reduce((a, b) => a + b, 0);
  }

  /** Every member's engines, in order. */
  async describe(): Promise<readonly EngineDescription[]> {
    const each = await Promise.all(this.seats.map((s) => s.provider.describe?.() ?? []));
    return each.flat();
  }

  /** Every member's preflight, at once: an engine that would refuse every run refuses the campaign. */
  async preflight(spec: PreflightSpec): Promise<readonly PreflightResult[]> {
    const each = await Promise.all(this.seats.map((s) => s.provider.preflight?.(spec) ?? []));
    return each.flat();
  }
}

/** A member's sandbox whose removal frees its slot (once). */
class PooledSandbox extends WrappedSandbox {
  private freed = false;

  constructor(
    inner: Sandbox,
    private readonly free: () => void,
  ) {
    super(inner);
  }

  override async remove(): Promise<void> {
    try {
      await this.inner.remove();
    } finally {
      if (!this.freed) {
        this.freed = true;
        this.free();
      }
    }
  }
}

/** One engine of a campaign: where it is, and whether its engine sees the host's paths. */
export interface EngineChoice {
  readonly address: EngineAddress;
  /** The engine sees the host's disk (the local engine, or one named by --engine-mounts). */
  readonly mounts: boolean;
}

/**
 * The campaign's provider over `engines`, `jobs` sandboxes on each. The first
 * engine is the campaign's own `client` (its health, gate and session labels;
 * images are built there); the others get clients of their own with the same
 * labels and gate, and (once opened) a watch that notices a frozen engine in seconds. When
 * every engine mounts, each is a LocalDockerProvider; otherwise every one is
 * driven as remote (nothing mounted), so a run is prepared the same way
 * wherever it lands.
 */
export function enginePoolOf(
  client: DockerClient,
  engines: readonly EngineChoice[],
  jobs: number,
): EnginePool {
  const mounts = engines.every((e) => e.mounts);
  const provider = (c: DockerClient, name: string): SandboxProvider =>
    mounts ? new LocalDockerProvider(c) : new RemoteDockerProvider({ client: c, name });
  const members = engines.map((engine, i) => {
    if (i === 0) return { provider: provider(client, engine.address.name), slots: jobs };
    const own: DockerClient = {
      ...connectEngine(engine.address),
      labels: client.labels,
      gate: client.gate,
    };
    return { provider: provider(own, engine.address.name), slots: jobs };
  });
  return new EnginePool(members);
}
