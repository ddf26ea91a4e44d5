/**
 * One Docker engine behind the seam, local or remote: sandboxes are runtime's
 * containers, created through the client's gate and carrying its labels,
 * hardened and started the same way whichever engine it is; its health is
 * what {@link DockerProvider.lost} reports. What differs is how files reach
 * the sandboxes, the provider's {@link FileStrategy}: `mounted` for an engine
 * that sees the host's disk, `copied` for one that does not (strategy.ts).
 *
 * @example
 * const provider = new DockerProvider({ client, files: mountedFiles });
 * const sandbox = await provider.start({ image: 'evalrig-base:bookworm' });
 * (await sandbox.exec(['true'])).exitCode // 0
 */
import type { Readable } from 'node:stream';
import {
  bounded,
  pingDocker,
  removeContainers,
  removeNetworks,
  startContainer,
  type DockerClient,
} from '../../runtime/index.js';
import { buildOn, shipBaseImage } from '../build-engine.js';
import { dockerImageBuilder } from '../docker-builder.js';
import {
  EngineChecks,
  type EngineDescription,
  type PreflightResult,
  type PreflightSpec,
} from '../engine-check.js';
import { SandboxError, SandboxFileError } from '../errors.js';
import { EngineTenancy } from '../lifecycle.js';
import {
  reserveWithServices,
  servicesRefusalOf,
  startWithServices,
  type RunPlaces,
} from './services/index.js';
import type { ImageExporter } from '../ship-image.js';
import type {
  BaseImageState,
  ImageBuilder,
  OpenOptions,
  ReserveSpec,
  Sandbox,
  SandboxImage,
  SandboxProvider,
  SandboxReservation,
  SandboxSpec,
} from '../types.js';
import { DockerSandbox } from './sandbox.js';
import type { FileStrategy } from './strategy.js';

export interface DockerProviderOptions<S extends FileStrategy> {
  readonly client: DockerClient;
  /** For reports and errors; default the client's address. */
  readonly name?: string;
  /** How files reach its sandboxes, made for this engine and name (mountedFiles, copiedFiles). */
  readonly files: (client: DockerClient, name: string) => S;
}

export class DockerProvider<S extends FileStrategy = FileStrategy>
  implements SandboxProvider, ImageExporter
{
  readonly name: string;
  readonly client: DockerClient;
  readonly strategy: S;
  private readonly checks: EngineChecks;
  private readonly tenancy: EngineTenancy;

  constructor(options: DockerProviderOptions<S>) {
    this.client = options.client;
    this.name = options.name ?? options.client.where;
    this.strategy = options.files(this.client, this.name);
    this.checks = new EngineChecks(this.client, this.name);
    this.tenancy = new EngineTenancy(this.client, this.name, (labels) => this.reap(labels));
  }

  get mountsHostFolders(): boolean {
    return this.strategy.mountsHostFolders;
  }

  check(): Promise<void> {
    return pingDocker(this.client);
  }

  /** The watch, and a reaper where it can reach the engine (the strategy says whether locally). */
  async open(options: OpenOptions = {}): Promise<void> {
    this.tenancy.open(options, this.strategy.local);
  }

  close(): Promise<void> {
    return this.tenancy.close();
  }

  dockerClients(): readonly DockerClient[] {
    return [this.client];
  }

  /** Images are built on this engine itself; ensureImage puts them where they run. */
  imageBuilder(): ImageBuilder {
    return dockerImageBuilder(this);
  }

  buildImage<T>(what: string, build: (engine: DockerClient) => Promise<T>): Promise<T> {
    return buildOn(this.client, what, build);
  }

  ensureBaseImage(tag: string, log: NodeJS.WritableStream): Promise<BaseImageState> {
    return shipBaseImage(this.client, [], tag, log);
  }

  lost(): Error | undefined {
    return this.client.health?.lost;
  }

  /** `docker save` of `tag` through the API: what another engine loads it from. */
  async exportImage(tag: string): Promise<Readable> {
    return (await bounded(this.client, 'an image export', () =>
      this.client.docker.getImage(tag).get(),
    )) as unknown as Readable;
  }

  ensureImage(image: SandboxImage, from?: SandboxProvider): Promise<void> {
    return this.strategy.ensureImage(image, from);
  }

  servicesRefusal(): string | undefined {
    return servicesRefusalOf(this.client);
  }

  async start(spec: SandboxSpec, places?: Promise<RunPlaces>): Promise<Sandbox> {
    this.tenancy.admit();
    const sandbox = await startWithServices(
      this.client,
      this.name,
      spec,
      (netnsOf) => this.startOn(spec, netnsOf),
      places,
    );
    return this.tenancy.track(sandbox);
  }

  /** The run's network and places made at once (see services/places.ts). */
  reserve(ahead: ReserveSpec): SandboxReservation {
    this.tenancy.admit();
    return reserveWithServices(this.client, ahead, (spec, places) => this.start(spec, places));
  }

  private async startOn(spec: SandboxSpec, netnsOf?: string): Promise<DockerSandbox> {
    const placement = await this.strategy.place(spec);
    const run = await startContainer(this.client, {
      // Its place on the run's network, made ahead (services/places.ts).
      ...(netnsOf ? { netnsOf } : {}),
      image: spec.image,
      user: spec.user,
      execUser: spec.execUser,
      workingDir: spec.workingDir,
      env: spec.env,
      labels: spec.labels,
      limits: spec.limits,
      online: spec.online,
      ...placement.container,
    });
    try {
      const files = await placement.files(run);
      return new DockerSandbox(this.client, this.name, run, this.mountsHostFolders, files);
    } catch (error) {
      await run.remove().catch(() => undefined);
      throw error instanceof SandboxError || error instanceof SandboxFileError
        ? error
        : new SandboxError(this.name, 'start', (error as Error).message, { cause: error });
    }
  }

  async reap(labels: Readonly<Record<string, string>>): Promise<number> {
    const containers = await removeContainers(this.client, labels);
    return containers + (await removeNetworks(this.client, labels));
  }

  async describe(): Promise<readonly EngineDescription[]> {
    return [await this.checks.describe()];
  }

  async preflight(spec: PreflightSpec): Promise<readonly PreflightResult[]> {
    return [await this.checks.preflight(spec)];
  }
}
