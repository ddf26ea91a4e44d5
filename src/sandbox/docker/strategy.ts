/**
 * How a Docker provider's files reach its sandboxes, the one thing its two
 * kinds of engine do differently: `mounted` (mounted.ts) binds the host's
 * folders into the container, for an engine that sees the host's disk;
 * `copied` (copied.ts) copies them in as archives and syncs them out as
 * deltas, its sockets carried by a tunnel over an exec, for one that does not.
 * The container's create, hardening, start, exec and removal are the
 * provider's and the same for both (provider.ts, sandbox.ts).
 */
import type { ContainerSpec, RunContainer } from '../../runtime/index.js';
import type { SandboxImage, SandboxProvider, SandboxSpec } from '../types.js';
import type { SandboxFiles } from './sandbox.js';

/** What a strategy makes of one spec before its container is created. */
export interface Placement {
  /** What it sets in the container's create: the mounts, and the main process's user and capabilities. */
  readonly container: Pick<ContainerSpec, 'binds' | 'user' | 'rootCapabilities'>;
  /**
   * The sandbox's file operations once its container runs; what goes in at the start is put
   * there first. A failure leaves the container to the provider, which removes it.
   */
  files(run: RunContainer): Promise<SandboxFiles>;
}

export interface FileStrategy {
  readonly kind: 'mounted' | 'copied';
  /** True when host folders are the sandboxes' own (mounted): nothing is copied or synced. */
  readonly mountsHostFolders: boolean;
  /** The default socket is this engine's when the client names no endpoint (where a reaper reaches). */
  readonly local: boolean;
  /** Makes `image` runnable on the engine: checked there, or shipped from `from`. */
  ensureImage(image: SandboxImage, from?: SandboxProvider): Promise<void>;
  /** The container's share of `spec` and the files of the sandbox made of it. */
  place(spec: SandboxSpec): Promise<Placement>;
}
