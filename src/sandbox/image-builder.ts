/**
 * What builds a campaign's images, apart from what runs them: image/'s builders
 * are Docker builds, wherever the runs then execute, so a provider that is no
 * Docker engine (a cluster) names a builder of its own (an engine, then a push
 * to the registry its nodes pull from) and the campaign asks nothing else of it.
 */
import type { DockerClient } from '../runtime/index.js';

/** Where the base image is on a provider's build engine, after {@link SandboxProvider.ensureBaseImage}. */
export interface BaseImageState {
  readonly tag: string;
  /** Its id there; undefined when no engine had it to ship. */
  readonly id?: string;
  /** The engine it was shipped from, when it was. */
  readonly from?: string;
}

/** An image a provider runs: built or shipped once per provider. */
export interface SandboxImage {
  readonly tag: string;
  readonly id: string;
}

/** Builds images and makes them runnable by one provider's nodes. */
export interface ImageBuilder {
  /** Where it builds (for reports and errors). */
  readonly name: string;
  /**
   * Lends the build engine to `build` (one of image/'s builders) for as long as
   * the build takes, but no longer than the engine answers. The image it yields
   * is named by its id (a content digest), never by its tag alone.
   */
  build<T>(what: string, build: (engine: DockerClient) => Promise<T>): Promise<T>;
  /** The base image made present where it builds, when another engine has it. */
  ensureBaseImage?(tag: string, log: NodeJS.WritableStream): Promise<BaseImageState>;
  /** Puts `image` (as built here) where the provider's nodes can run it, by its id. */
  place(image: SandboxImage): Promise<void>;
}
