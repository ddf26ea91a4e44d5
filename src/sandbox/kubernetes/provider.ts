/**
 * A cluster as a {@link SandboxProvider}: one Job per sandbox, owned by the
 * session's anchor ConfigMap, fenced by the deny-all policy, reaped by label.
 * The pod has two containers: "agent" (the spec's exec user) and "keeper"
 * (a uid of its own, in a process namespace of its own): the keeper fills the
 * folders the agent only reads and serves the sockets through the tunnel.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { LABELS } from '../../seam/index.js';
import { SandboxError } from '../errors.js';
import { ProviderClosedError } from '../lifecycle.js';
import { projectRoot, type DockerClient, type Reaper } from '../../runtime/index.js';
import { buildOn } from '../build-engine.js';
import { dockerImageBuilder } from '../docker-builder.js';
import type { ImageBuilder } from '../image-builder.js';
import type { EngineDescription, PreflightResult, PreflightSpec } from '../engine-check.js';
import type { OpenOptions, Sandbox, SandboxImage, SandboxProvider, SandboxSpec } from '../types.js';
import { pushImage, type ClusterBuilder } from './registry-push.js';
import type { Cluster } from './cluster.js';
import { anchorName, jobName } from './names.js';
import { ensureDenyAll } from './network-policy.js';
import { nodeUnreachable, PodExecError } from './exec.js';
import { ensureAnchor, PodStartError, startJobPod } from './pod-lifecycle.js';
import { fillPod } from './pod-fill.js';
import { keeperOf, podLayout } from './pod-layout.js';
import { describeCluster, preflightCluster } from './preflight.js';
import { KubernetesSandbox } from './sandbox.js';
import { sweepByLabel } from './sweep.js';

export interface KubernetesProviderOptions {
  readonly cluster: Cluster;
  /** The engine address as given (reports, errors). */
  readonly name: string;
  /** On every object it makes; must hold {@link LABELS.session}: what its close sweeps by. */
  readonly labels: Readonly<Record<string, string>>;
  /** Where images are built and pushed; absent: only images already pushed, by digest, run. */
  readonly builder?: ClusterBuilder;
  /** How long a pod may take to run (pull, schedule); default 120 s. */
  readonly startTimeoutMs?: number;
  /**
   * Starts the session's reaper (connect.ts: a process that sweeps the session's objects by
   * label once this one is gone, however it ended); called by `open`, released by `close`.
   */
  readonly reaper?: (options: OpenOptions) => Reaper;
  /** The bundled tunnel program on the host; default dist/stand-in/tunnel/tunnel. */
  readonly tunnelProgram?: string;
}

/**
 * Pid 1: idle, and reaping. A process the agent leaves behind is adopted by pid 1 when its
 * parent exits; `sleep infinity` would leave it a zombie once killed (still in /proc). The
 * shell's `wait` reaps every child it has, adopted ones too, as each ends.
 */
const IDLER = ['sh', '-c', 'while :; do sleep 3600 & wait; done'];
const DIGEST = /@sha256:[0-9a-f]{64}$/u;
const DEFAULT_DISK = 1024 ** 3;
const DEFAULT_MEMORY = 512 * 1024 ** 2;
/** Past the node controller's grace period (40 s), when a lost node is tainted anyway. */
const NODE_AVOIDED_MS = 60_000;

export class KubernetesProvider implements SandboxProvider {
  readonly mountsHostFolders = false;
  readonly name: string;
  private readonly cluster: Cluster;
  private readonly labels: Readonly<Record<string, string>>;
  private anchor?: Promise<{ name: string; uid: string }>;
  private closed = false;
  private reaper: Reaper | undefined;
  private described?: Promise<EngineDescription>;
  /**
   * Nodes the API server could not reach a pod on, until when they are avoided. A lost
   * kubelet's node stays Ready for the controller's grace period (40 s): a run played once
   * more would be put there and wait out its start timeout.
   */
  private readonly lostNodes = new Map<string, number>();
  private readonly starting = new Set<Promise<unknown>>();
  /** A built image's tag → the digest reference it was pushed as. */
  private readonly pushed = new Map<string, string>();

  constructor(private readonly options: KubernetesProviderOptions) {
    this.cluster = options.cluster;
    this.name = options.name;
    this.labels = options.labels;
    if (!this.labels[LABELS.session])
      throw new Error(`KubernetesProvider ${this.name}: no ${LABELS.session} label`);
  }

  servicesRefusal(): string {
    return 'services are refused on Kubernetes: the pod has no network of its own to share with them';
  }

  async open(options: OpenOptions = {}): Promise<void> {
    if (this.closed) throw new ProviderClosedError(this.name);
    // Before the first object: a SIGKILL from here on leaves nothing past the reaper's sweep.
    this.reaper ??= this.options.reaper?.(options);
    await this.session();
    // Only the managed label: the policy is the namespace's, and no session's sweep removes it.
    await ensureDenyAll(this.cluster, {});
  }

  async close(): Promise<void> {
    this.closed = true;
    try {
      await Promise.allSettled([...this.starting]);
      await sweepByLabel(this.cluster, this.labels);
    } finally {
      // Its own sweep finds what this one's left in flight, then it exits.
      this.reaper?.release();
    }
  }

  async check(): Promise<void> {
    try {
      await this.cluster.batch.listNamespacedJob({ namespace: this.cluster.namespace, limit: 1 });
    } catch (error) {
      const why = (error as { body?: string }).body ?? (error as Error).message;
      throw new SandboxError(
        this.name,
        'check',
        `the cluster does not answer: ${String(why).slice(0, 300)}`,
      );
    }
  }

  /** Builds on the builder's engine, places by a push; without one, its build says so. */
  imageBuilder(): ImageBuilder {
    return dockerImageBuilder(this);
  }

  buildImage<T>(what: string, build: (engine: DockerClient) => Promise<T>): Promise<T> {
    const builder = this.options.builder;
    if (!builder)
      throw new SandboxError(
        this.name,
        'build',
        `${what} must be built, and a cluster runs images from a registry: name the one its nodes pull from with --image-registry host:port`,
      );
    return buildOn(builder.client, what, build);
  }

  /** Pushed to the nodes' registry and run by digest from then on; a digest is runnable as is. */
  async ensureImage(image: SandboxImage): Promise<void> {
    if (DIGEST.test(image.tag) || this.pushed.has(image.tag)) return;
    if (!this.options.builder)
      throw new SandboxError(
        this.name,
        'image',
        `${image.tag}: pods run images by digest (registry/name@sha256:…)`,
      );
    this.pushed.set(image.tag, await pushImage(this.options.builder, image));
  }

  /** The cluster as one engine: its runs' records name it. */
  async describe(): Promise<readonly EngineDescription[]> {
    this.described ??= describeCluster(this.cluster, this.name);
    return [await this.described];
  }

  async preflight(spec: PreflightSpec): Promise<readonly PreflightResult[]> {
    const [engine] = await this.describe();
    return [await preflightCluster(engine!, (s) => this.start(s), spec)];
  }

  async reap(labels: Readonly<Record<string, string>>): Promise<number> {
    return (await sweepByLabel(this.cluster, labels)).jobs;
  }

  async start(spec: SandboxSpec): Promise<Sandbox> {
    if (this.closed) throw new ProviderClosedError(this.name);
    const starting = this.startPod(spec);
    this.starting.add(starting);
    try {
      return await starting;
    } catch (error) {
      // A pod that did not come up, or an exec that broke while filling it: the engine's, typed.
      if (error instanceof PodStartError || error instanceof PodExecError)
        throw new SandboxError(this.name, 'start', error.message, { cause: error });
      throw error;
    } finally {
      this.starting.delete(starting);
    }
  }

  private session(): Promise<{ name: string; uid: string }> {
    this.anchor ??= ensureAnchor(
      this.cluster,
      anchorName(this.labels[LABELS.session]!),
      this.labels,
    );
    return this.anchor;
  }

  private refuse(spec: SandboxSpec): void {
    const refusal = (why: string): SandboxError => new SandboxError(this.name, 'start', why);
    if (spec.services?.length) throw refusal(this.servicesRefusal());
    if (spec.online) throw refusal("a pod is never online: run an environment's setup on Docker");
    if (!DIGEST.test(spec.image))
      throw refusal(`${spec.image}: pods run images by digest (registry/name@sha256:…)`);
  }

  private async startPod(asked: SandboxSpec): Promise<Sandbox> {
    const spec = { ...asked, image: this.pushed.get(asked.image) ?? asked.image };
    this.refuse(spec);
    const execUser = spec.execUser ?? '1000:1000';
    const [uid, gid] = execUser.split(':').map(Number);
    if (!Number.isInteger(uid) || !Number.isInteger(gid))
      throw new SandboxError(this.name, 'start', `exec user ${execUser} is no uid:gid`);
    const owner = { uid: uid!, gid: gid! };
    const keeper = keeperOf(spec, owner);
    const workingDir = spec.workingDir ?? '/tmp';
    const diskBytes = spec.diskBytes ?? DEFAULT_DISK;
    const layout = podLayout(spec, workingDir, diskBytes, this.name);
    const runKey = spec.labels?.[LABELS.run] ?? 'sandbox';
    const name = jobName(
      this.labels[LABELS.session]!,
      `${runKey}/${randomBytes(6).toString('hex')}`,
    );
    const pod = await startJobPod(
      this.cluster,
      {
        name,
        image: spec.image,
        labels: { ...spec.labels, ...this.labels },
        runKey,
        anchor: await this.session(),
        uid: owner.uid,
        gid: owner.gid,
        workingDir: layout.containerWorkingDir,
        env: spec.env ?? {},
        cpus: spec.limits?.cpus ?? 1,
        memoryBytes: spec.limits?.memoryBytes ?? DEFAULT_MEMORY,
        diskBytes,
        activeDeadlineSeconds: 24 * 3600,
        ttlSecondsAfterFinished: 60,
        command: IDLER,
        folders: layout.folders,
        keeper,
        avoidNodes: this.avoidedNodes(),
      },
      this.options.startTimeoutMs,
    );
    const lost = (): void => {
      if (pod.node) this.lostNodes.set(pod.node, Date.now() + NODE_AVOIDED_MS);
    };
    const keeperUser = `${keeper.uid}:${keeper.gid}`;
    const below = layout.containerWorkingDir === workingDir ? undefined : workingDir;
    const sandbox = new KubernetesSandbox(
      this.cluster,
      name,
      pod.name,
      execUser,
      this.name,
      keeperUser,
      below,
      lost,
    );
    try {
      await fillPod(sandbox, spec, {
        agent: owner,
        keeper,
        routes: layout.routes,
        ...(below ? { workingDir: below } : {}),
        tunnelProgram:
          this.options.tunnelProgram ??
          path.join(projectRoot(), 'dist', 'stand-in', 'tunnel', 'tunnel'),
      });
    } catch (error) {
      if (nodeUnreachable(error)) lost();
      await sandbox.remove();
      throw error;
    }
    return sandbox;
  }

  private avoidedNodes(): string[] {
    const now = Date.now();
    for (const [node, until] of this.lostNodes) if (until <= now) this.lostNodes.delete(node);
    return [...this.lostNodes.keys()];
  }
}
