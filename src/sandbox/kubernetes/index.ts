/**
 * The Kubernetes sandbox backend's surface (design: ../kubernetes.md). Its
 * pieces so far: the Job and its hardening, the cluster connection, exec over
 * the API server, the pod's start and removal, the reaper's sweep by label, and the
 * provider over them all (provider.ts; connect.ts is the `k8s` scheme's factory).
 */
export { KubernetesAddressError, openCluster, parseClusterAddress } from './cluster.js';
export type { Cluster, ClusterAddress } from './cluster.js';
export { exitCodeOf, podExec, PodExecError, podStream } from './exec.js';
export type { PodExecOptions, PodExecResult, PodStream } from './exec.js';
export { buildAnchor, buildJob, lockedContext, splitAmounts } from './job-spec.js';
export type { JobFolder, JobSpecInput } from './job-spec.js';
export { podLayout, TUNNEL_DIR, TUNNEL_PATH } from './pod-layout.js';
export type { PodLayout } from './pod-layout.js';
export { anchorName, jobName, labelSet, labelValue, shortHash } from './names.js';
export { buildDenyAll, DENY_ALL_NAME, ensureDenyAll } from './network-policy.js';
export {
  ensureAnchor,
  PodStartError,
  removeJob,
  startJobPod,
  type StartedPod,
} from './pod-lifecycle.js';
export { labelSelector, sweepByLabel } from './sweep.js';
export type { SweepCount } from './sweep.js';
export { copyInto, listPodFolder, sendBytes, syncFromPod } from './files.js';
export { KubernetesSandbox } from './sandbox.js';
export { KubernetesProvider } from './provider.js';
export type { KubernetesProviderOptions } from './provider.js';
export {
  examineCluster,
  examineClusterAt,
  formatClusterExamination,
  strippedHardening,
} from './doctor.js';
export type { ClusterExamination } from './doctor.js';
