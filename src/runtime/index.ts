/**
 * The one Docker client of the project (dockerode underneath): connection,
 * ping with a clear failure, containers that are secure by default and
 * labelled so that leftovers can always be found and removed.
 */
export {
  connectDocker,
  dockerEndpoint,
  pingDocker,
  NoDockerEngineError,
  type DockerClient,
  type DockerEndpoint,
  type SshTarget,
  type TlsFiles,
} from './connection.js';
export {
  CALL_BOUND_MS,
  EngineHealth,
  EngineLostError,
  PING_BOUND_MS,
  bounded,
  isConnectionError,
  watchEngine,
  type EngineWatchOptions,
} from './engine.js';
export { EngineProfile, type EngineKind, type Ulimit } from './profile.js';
export {
  EngineRefusedError,
  asRefusal,
  engineMessageOf,
  refusalHint,
  statusOf,
} from './refusal.js';
export {
  RUN_NETWORK_OPTIONS,
  createRunNetwork,
  removeNetwork,
  removeNetworks,
  type RunNetwork,
} from './network.js';
export { identifyEngine, type EngineIdentity } from './identity.js';
export {
  startClusterReaper,
  startReaper,
  type ClusterReaperTarget,
  type Reaper,
  type ReaperOptions,
} from './reaper.js';
export { projectRoot } from './root.js';
export { isProcessAlive, sweepStaleScratch, useScratchFolder } from './scratch.js';
export {
  EXIT_CODES,
  INTERRUPT_BOUND_MS,
  installSignalHandling,
  interruptedBy,
  onInterrupt,
  type InterruptHook,
} from './signals.js';
export {
  CreationGate,
  GateClosedError,
  DEFAULT_LIMITS,
  RunContainer,
  listContainers,
  removeContainers,
  runOnce,
  startContainer,
  type Bind,
  type ContainerSpec,
} from './container.js';
// The runtime's containers label and stop as the seam says (its words live below both).
export { LABELS, ProcessesNotStoppedError, type ContainerLimits } from '../seam/index.js';
