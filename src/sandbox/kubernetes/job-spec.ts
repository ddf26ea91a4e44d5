/**
 * The Job that holds one run's sandbox (src/sandbox/kubernetes.md, "One Job
 * per run"). Built in code, never from a template string, so every hardening
 * line is a typed field a test reads back from the API server.
 */
import type {
  V1Affinity,
  V1ConfigMap,
  V1Container,
  V1Job,
  V1SecurityContext,
  V1Volume,
} from '@kubernetes/client-node';
import { LABELS } from '../../seam/index.js';
import { labelSet } from './names.js';

/** What the pod is given. Limits are not optional: requests equal limits (Guaranteed QoS). */
export interface JobSpecInput {
  readonly name: string;
  readonly namespace: string;
  /** `registry/name@sha256:…`: always by digest, so the node runs what was built. */
  readonly image: string;
  readonly labels: Readonly<Record<string, string>>;
  /** The full run key, kept as an annotation for people and reap logs. */
  readonly runKey: string;
  readonly anchor: { readonly name: string; readonly uid: string };
  readonly uid: number;
  readonly gid: number;
  readonly workingDir: string;
  readonly env: Readonly<Record<string, string>>;
  readonly cpus: number;
  readonly memoryBytes: number;
  readonly diskBytes: number;
  /** The Job's backstop: evalrig ends its runs first. */
  readonly activeDeadlineSeconds: number;
  readonly ttlSecondsAfterFinished: number;
  /** The pid-1 command: an idle process, as every exec is a separate process beside it. */
  readonly command: readonly string[];
  readonly runtimeClassName?: string;
  /** Folders that start empty and are filled by copyIn (the work tree, home, /tmp …). */
  readonly folders: readonly JobFolder[];
  /**
   * The second container, "keeper": the same image under a uid of its own. It writes what
   * the agent only reads (the eval set, the socket folders) and runs the socket tunnel.
   */
  readonly keeper?: { readonly uid: number; readonly gid: number };
  /** Nodes the pod must not be put on: ones whose kubelet this session just lost. */
  readonly avoidNodes?: readonly string[];
}

/**
 * An emptyDir and who sees it: `agent` (the default) writes it; `shared` is written by the
 * keeper and mounted read-only in the agent; `keeper` is the keeper's alone.
 */
export interface JobFolder {
  readonly name: string;
  readonly path: string;
  readonly sizeBytes: number;
  readonly access?: 'agent' | 'shared' | 'keeper';
}

/**
 * The run's CPU and memory split between the two containers. On Docker the keeper's tunnel
 * runs in the run's one container, inside its limits: here the keeper's share is taken from
 * them too, so a pod asks the node for what the eval set gives a run, no more. A Node tunnel
 * idles in tens of MB; a tenth of the CPU (50m to 200m) carries a model's answers.
 */
export function splitAmounts(
  cpus: number,
  memoryBytes: number,
): { agent: { cpu: string; memory: string }; keeper: { cpu: string; memory: string } } {
  const total = Math.round(cpus * 1000);
  const keeperCpu = Math.min(200, Math.max(50, Math.round(total / 10)));
  const keeperMemory = Math.min(128 * 1024 * 1024, Math.floor(memoryBytes / 4));
  return {
    agent: { cpu: `${total - keeperCpu}m`, memory: String(memoryBytes - keeperMemory) },
    keeper: { cpu: `${keeperCpu}m`, memory: String(keeperMemory) },
  };
}

/** By node name (a field, not a label: a node's labels are its kubelet's to set). */
function avoiding(nodes: readonly string[]): V1Affinity {
  const notIn = { key: 'metadata.name', operator: 'NotIn', values: [...nodes] };
  return {
    nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [{ matchFields: [notIn] }],
      },
    },
  };
}

/** The keeper writes little to its own layer: logs, and nothing else (its folders are emptyDirs). */
export const KEEPER_EPHEMERAL = String(64 * 1024 * 1024);

/** The container's own lock: no root, no capabilities, nothing gained by exec, a read-only root. */
export function lockedContext(uid: number, gid: number): V1SecurityContext {
  return {
    runAsUser: uid,
    runAsGroup: gid,
    runAsNonRoot: true,
    allowPrivilegeEscalation: false,
    privileged: false,
    readOnlyRootFilesystem: true,
    capabilities: { drop: ['ALL'] },
    seccompProfile: { type: 'RuntimeDefault' },
  };
}

export function buildJob(input: JobSpecInput): V1Job {
  const labels = labelSet({ ...input.labels, [LABELS.managed]: 'true' });
  const split = splitAmounts(input.cpus, input.memoryBytes);
  const whole = { cpu: String(input.cpus), memory: String(input.memoryBytes) };
  const amount = {
    ...(input.keeper ? split.agent : whole),
    'ephemeral-storage': String(input.diskBytes),
  };
  const keeperAmount = { ...split.keeper, 'ephemeral-storage': KEEPER_EPHEMERAL };
  const volumes: V1Volume[] = input.folders.map((f) => ({
    name: f.name,
    emptyDir: { sizeLimit: String(f.sizeBytes) },
  }));
  const access = (f: JobFolder): string => f.access ?? 'agent';
  // A shared folder read-only in the agent: connect() on a socket there still works.
  const agentMounts = input.folders
    .filter((f) => access(f) !== 'keeper')
    .map((f) => ({
      name: f.name,
      mountPath: f.path,
      ...(access(f) === 'shared' ? { readOnly: true } : {}),
    }));
  const keeper: V1Container[] = input.keeper
    ? [
        {
          name: 'keeper',
          image: input.image,
          imagePullPolicy: 'IfNotPresent',
          command: [...input.command],
          workingDir: '/tmp',
          env: [{ name: 'HOME', value: '/tmp' }],
          securityContext: lockedContext(input.keeper.uid, input.keeper.gid),
          resources: { requests: keeperAmount, limits: keeperAmount },
          volumeMounts: input.folders
            .filter((f) => access(f) !== 'agent')
            .map((f) => ({ name: f.name, mountPath: f.path })),
        },
      ]
    : [];
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: input.name,
      namespace: input.namespace,
      labels,
      annotations: { 'evalrig.run-key': input.runKey },
      // The anchor's deletion (the reaper's, or a person's) takes every Job with it.
      ownerReferences: [
        { apiVersion: 'v1', kind: 'ConfigMap', name: input.anchor.name, uid: input.anchor.uid },
      ],
    },
    spec: {
      // A failed pod is never replaced by a fresh one with an empty work tree.
      backoffLimit: 0,
      ttlSecondsAfterFinished: input.ttlSecondsAfterFinished,
      activeDeadlineSeconds: input.activeDeadlineSeconds,
      template: {
        metadata: { labels },
        spec: {
          restartPolicy: 'Never',
          // A token in the pod is a credential to the API server, which can run pods.
          automountServiceAccountToken: false,
          enableServiceLinks: false,
          shareProcessNamespace: false,
          hostNetwork: false,
          hostPID: false,
          hostIPC: false,
          // Nothing to resolve: no DNS server is offered at all.
          dnsPolicy: 'None',
          dnsConfig: { nameservers: ['127.0.0.1'] },
          ...(input.runtimeClassName ? { runtimeClassName: input.runtimeClassName } : {}),
          ...(input.avoidNodes?.length ? { affinity: avoiding(input.avoidNodes) } : {}),
          securityContext: {
            runAsNonRoot: true,
            runAsUser: input.uid,
            runAsGroup: input.gid,
            seccompProfile: { type: 'RuntimeDefault' },
          },
          containers: [
            {
              name: 'agent',
              image: input.image,
              imagePullPolicy: 'IfNotPresent',
              command: [...input.command],
              workingDir: input.workingDir,
              env: Object.entries(input.env).map(([name, value]) => ({ name, value })),
              securityContext: lockedContext(input.uid, input.gid),
              resources: { requests: amount, limits: amount },
              volumeMounts: agentMounts,
            },
            ...keeper,
          ],
          volumes,
        },
      },
    },
  };
}

/** The per-session anchor: labelled like the rest, so a sweep by label finds it too. */
export function buildAnchor(
  name: string,
  namespace: string,
  labels: Readonly<Record<string, string>>,
): V1ConfigMap {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace, labels: labelSet({ ...labels, [LABELS.managed]: 'true' }) },
    data: { purpose: "owner of this session's Jobs: deleting it deletes them" },
  };
}
