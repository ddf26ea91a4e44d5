/**
 * A campaign's look at a cluster before its first run, as at a Docker engine
 * (engine-check.ts): one locked-down pod with the eval set's limits, what it
 * sees inside (uid, cgroup limits, network, pid 1), then removed. Its record
 * names the cluster in every run.json: the address as given, the API server's
 * version, and whether the pod's limits held.
 */
import { VersionApi } from '@kubernetes/client-node';
import { LOCKED_DOWN_LOOK, limitsHold, parseLook } from '../engine-check.js';
import type { EngineDescription, PreflightResult, PreflightSpec } from '../engine-check.js';
import type { Sandbox, SandboxSpec } from '../types.js';
import type { Cluster } from './cluster.js';

/** Who answers at the address: the API server's version; its URL and namespace as the id. */
export async function describeCluster(
  cluster: Cluster,
  address: string,
): Promise<EngineDescription> {
  const v = await cluster.config.makeApiClient(VersionApi).getCode();
  return {
    address,
    kind: 'kubernetes',
    id: `${cluster.config.getCurrentCluster()?.server ?? 'unknown'}/${cluster.namespace}`,
    version: v.gitVersion,
    apiVersion: `${v.major}.${v.minor}`,
    rootless: false,
    // A restricted user cannot read the nodes: a capacity unstated (0) checks nothing, and
    // a run larger than every node waits unscheduled until the start's timeout says so.
    cpus: 0,
    memoryBytes: 0,
    os: 'linux',
    arch: '',
  };
}

export async function preflightCluster(
  engine: EngineDescription,
  start: (spec: SandboxSpec) => Promise<Sandbox>,
  spec: PreflightSpec,
): Promise<PreflightResult> {
  const sandbox = await start({
    image: spec.image,
    ...(spec.limits ? { limits: spec.limits } : {}),
    labels: { ...spec.labels, 'evalrig.preflight': 'true' },
  });
  let text: string;
  try {
    const r = await sandbox.exec(['sh', '-c', LOCKED_DOWN_LOOK], {
      timeoutMs: 30_000,
      maxOutputBytes: 4096,
    });
    text = r.stdout;
  } finally {
    await sandbox.remove().catch(() => undefined);
  }
  const look = parseLook(text);
  const limitsEnforced = limitsHold(look, spec.limits);
  const warnings = limitsEnforced
    ? []
    : [
        `the cluster at ${engine.address} does not hold its pods to their memory and process limits (a pod's process limit is the kubelet's podPidsLimit, no pod's field): its runs are not bounded by them`,
      ];
  return { engine, look, limitsEnforced, warnings };
}
