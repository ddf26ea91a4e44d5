/** The two families of engines evalrig drives: Docker's dockerd, and Podman's API service. */
export type EngineKind = 'docker' | 'podman';

/** One resource limit of a container's processes (setrlimit), as the Docker API spells it. */
export interface Ulimit {
  readonly Name: string;
  readonly Soft: number;
  readonly Hard: number;
}

/**
 * What evalrig learned of an engine that changes how it asks that engine for
 * containers. Learned once, when the engine is opened (sandbox/open-engine);
 * until then the engine is asked as Docker is. Clients copied from one
 * another share it, so every run on the engine benefits.
 */
export class EngineProfile {
  kind: EngineKind = 'docker';
  rootless = false;
  /**
   * Sent with every container when set. Rootful Podman otherwise raises the
   * open-file and process limits to 1048576, which a host whose root lacks
   * CAP_SYS_RESOURCE refuses; Docker's containers inherit the engine's own.
   */
  ulimits: readonly Ulimit[] | undefined = undefined;
}
