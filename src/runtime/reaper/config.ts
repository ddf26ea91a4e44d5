/**
 * What a reaper is told at its start, as one JSON argument: where the engine is, which labels
 * mark what it removes, and what else it sweeps. Checked when read: the program trusts nothing
 * it was not handed whole.
 */

/** Where a reaper finds a cluster (kubernetes.ts sweeps it). */
export interface ReaperKubernetes {
  /** The kubeconfig file; absent: the default lookup (KUBECONFIG, ~/.kube/config, in-cluster). */
  readonly kubeconfig?: string;
  /** The kubeconfig context; absent: its current one. */
  readonly context?: string;
  readonly namespace: string;
}

/** An ssh:// engine, dialled as evalrig dials it (the agent's keys, known host keys only). */
export interface ReaperSsh {
  readonly host: string;
  readonly port: number;
  readonly username: string;
  readonly agent?: string;
  /** The host keys known_hosts lists for it, base64. */
  readonly hostKeys: readonly string[];
  /** The engine's socket on the far side, forwarded; absent: `docker system dial-stdio`. */
  readonly socket?: string;
  /** The ssh2 module's absolute path (not bundled: it has native parts). */
  readonly module: string;
}

export interface ReaperConfig {
  /** A cluster's namespace to sweep by label (Kubernetes objects) instead of a Docker engine. */
  readonly kubernetes?: ReaperKubernetes;
  readonly socketPath?: string;
  readonly host?: string;
  readonly port?: number | string;
  readonly https: boolean;
  /** The TLS files' paths (never the key itself: argv is world-readable). */
  readonly tls?: { readonly ca?: string; readonly cert?: string; readonly key?: string };
  readonly ssh?: ReaperSsh;
  /** `key=value` filters: everything carrying all of them is the reaper's to remove. */
  readonly labels: readonly string[];
  /** The label of the containers holding a run's network namespace: removed last. */
  readonly placeLabel: string;
  /** How long it keeps trying after the orchestrator ended. */
  readonly sweepMs: number;
  /** The orchestrator's scratch folder, removed first. */
  readonly scratch?: string;
  /** Mounts under this folder (the runs' disk quotas) are unmounted. */
  readonly mounts?: string;
  /** Only the mounts whose source ends with `.<owner>`. */
  readonly mountsOwner?: string;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The config in `text`, or a thrown Error naming what is wrong. */
export function parseReaperConfig(text: string): ReaperConfig {
  const v: unknown = JSON.parse(text);
  if (!isObject(v)) throw new Error('reaper: the config is not an object');
  const labels = v.labels;
  if (!Array.isArray(labels) || labels.length === 0 || !labels.every((l) => typeof l === 'string'))
    throw new Error('reaper: the config names no labels');
  if (typeof v.placeLabel !== 'string') throw new Error('reaper: the config names no placeLabel');
  if (typeof v.sweepMs !== 'number' || !(v.sweepMs > 0))
    throw new Error('reaper: sweepMs must be a positive number');
  if (v.kubernetes !== undefined) {
    const k = v.kubernetes;
    if (!isObject(k) || typeof k.namespace !== 'string' || k.namespace === '')
      throw new Error('reaper: kubernetes.namespace must be a non-empty string');
    for (const key of ['kubeconfig', 'context'] as const)
      if (k[key] !== undefined && (typeof k[key] !== 'string' || k[key] === ''))
        throw new Error(`reaper: kubernetes.${key} must be a non-empty string when given`);
    return v as unknown as ReaperConfig;
  }
  // An ssh engine is dialled whatever else is said; else its socket, else TCP.
  if ([v.socketPath, v.host, v.ssh].every((x) => x === undefined))
    throw new Error('reaper: give one of socketPath, host, ssh or kubernetes');
  return v as unknown as ReaperConfig;
}
