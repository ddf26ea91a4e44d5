/**
 * Where runs execute, behind one narrow interface: a SandboxProvider starts
 * Sandboxes (exec, read and write files, copy in, sync out, stop, remove).
 * campaign/ and collect/ speak only this.
 */
export { SandboxError, SandboxFileError } from './errors.js';
export {
  DockerProvider,
  DockerSandbox,
  LocalDockerProvider,
  RemoteDockerProvider,
  bindsOf,
  copiedFiles,
  mountedFiles,
  type DockerProviderOptions,
  type FileStrategy,
  type RemoteDockerOptions,
} from './docker/index.js';
export { DEFAULT_REMOTE_LIMITS, type RemoteLimits } from './sync/index.js';
export { connectEngine, engineAddress, type EngineAddress } from './engines.js';
export { exporterOf, imageIdOn, shipImage, type ImageExporter } from './ship-image.js';
export { shipBaseImage } from './build-engine.js';
export { dockerImageBuilder } from './docker-builder.js';
export {
  EngineChecks,
  describeEngine,
  preflightEngine,
  type EngineDescription,
  type LockedDownLook,
  type PreflightResult,
  type PreflightSpec,
} from './engine-check.js';
export { EnginePool, enginePoolOf, type EngineChoice, type PoolMember } from './engine-pool.js';
export { ProviderClosedError } from './lifecycle.js';
export type { OpenOptions } from './types.js';
export {
  connectProvider,
  examineClusterEngine,
  type ConnectedProvider,
  type ProviderChoice,
} from './connect.js';
export {
  registerProvider,
  schemeOf,
  type EngineCapacityInfo,
  type ProviderFactory,
  type ProviderScheme,
} from './registry.js';
// What a sandbox's exec takes and returns, what stopProcessesOf throws, the labels
// every sandbox carries: one vocabulary for every backend (sandbox/types.ts names it).
export {
  LABELS,
  ProcessesNotStoppedError,
  type ContainerLimits,
  type ExecOptions,
  type ExecResult,
  type SandboxLimits,
} from './types.js';
// The Docker side of the Docker providers, for callers that hold one of their engines.
export type { DockerClient, EngineWatchOptions } from '../runtime/index.js';
export { PLACE_LABEL, SERVICE_LABEL, describeFailure, servicesRefusalOf } from './docker/index.js';
export type {
  BaseImageState,
  ImageBuilder,
  Owner,
  ReserveSpec,
  Sandbox,
  SandboxFile,
  SandboxImage,
  SandboxProvider,
  SandboxReservation,
  SandboxSpec,
  ServiceFailure,
  ServiceSpec,
  StartedService,
  SharedFile,
  SharedFolder,
  SharedSockets,
  SyncStats,
} from './types.js';
