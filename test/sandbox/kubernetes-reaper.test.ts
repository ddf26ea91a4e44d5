/**
 * The Kubernetes provider's reaper against the real test cluster (test/support/k8s.ts): an
 * evalrig-like child (test/support/k8s-child.ts) opens the provider through connectProvider, as
 * `evalrig run --engine k8s://…` does, and starts a sandbox. SIGKILLed, its reaper deletes the
 * session's Job, pod and anchor by label, well before the Job's 60 s TTL, and the test sweeps
 * nothing itself; closed normally, nothing is left and the reaper exits.
 */
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { openCluster, type Cluster } from '../../src/sandbox/kubernetes/index.js';
import { BASE_IMAGE } from '../support/docker.js';
import { clusterEnv, pushToRegistry, requireCluster, type K8sCluster } from '../support/k8s.js';

/** The session's Jobs, pods and ConfigMaps (its anchor), by its label. */
async function leftOver(cluster: Cluster, session: string): Promise<number> {
  const query = { namespace: cluster.namespace, labelSelector: `evalrig.session=${session}` };
  const [jobs, pods, maps] = await Promise.all([
    cluster.batch.listNamespacedJob(query),
    cluster.core.listNamespacedPod(query),
    cluster.core.listNamespacedConfigMap(query),
  ]);
  return jobs.items.length + pods.items.length + maps.items.length;
}

/** Polls until `done` holds or `ms` have passed; resolves to the time it took, or undefined. */
async function within(
  ms: number,
  done: () => Promise<boolean> | boolean,
): Promise<number | undefined> {
  const t0 = Date.now();
  while (Date.now() - t0 < ms) {
    if (await done()) return Date.now() - t0;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return undefined;
}

/** The pids of the reapers started for `session`: its label is in their argv (the config). */
function reapersOf(session: string): number[] {
  return readdirSync('/proc')
    .filter((p) => /^\d+$/u.test(p))
    .filter((p) => {
      try {
        const argv = readFileSync(`/proc/${p}/cmdline`, 'utf8');
        return argv.includes('reaper.cjs') && argv.includes(`evalrig.session=${session}`);
      } catch {
        return false; // ended while listed
      }
    })
    .map(Number);
}

describe('kubernetes provider: its reaper (a real cluster)', function () {
  this.timeout(300_000);
  let env: K8sCluster;
  let cluster: Cluster;
  let image: string;
  const children: ChildProcess[] = [];

  before(async function () {
    env = await requireCluster(this);
    cluster = openCluster({ kubeconfig: env.kubeconfig, namespace: env.namespace });
    image = pushToRegistry(BASE_IMAGE, env.registry);
  });

  after(() => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  });

  /** The child, once its sandbox runs; its session read off the pod it started. */
  async function child(
    engine: string,
    mode: 'kill' | 'close',
    extraEnv: Record<string, string> = {},
  ): Promise<{ proc: ChildProcess; session: string; out: () => string }> {
    const run = `reaper-${mode}-${process.pid}-${Date.now().toString(36)}`;
    const proc = spawn(
      process.execPath,
      ['--import', 'tsx', 'test/support/k8s-child.ts', engine, image, run, mode],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
        env: { ...process.env, ...clusterEnv(env), ...extraEnv },
      },
    );
    children.push(proc);
    let out = '';
    await new Promise<void>((resolve, reject) => {
      proc.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('ready')) resolve();
      });
      proc.on('exit', (code) => reject(new Error(`the child exited (${code}) before its pod ran`)));
    });
    const pods = await cluster.core.listNamespacedPod({
      namespace: cluster.namespace,
      labelSelector: `evalrig.run=${run}`,
    });
    expect(pods.items).to.have.length(1);
    expect(pods.items[0]!.status!.phase).to.equal('Running');
    const session = pods.items[0]!.metadata!.labels!['evalrig.session']!;
    return { proc, session, out: () => out };
  }

  it("SIGKILLed: its reaper deletes the session's Job, pod and anchor within 15 s (the TTL is 60 s)", async () => {
    // The default kubeconfig lookup (KUBECONFIG), a context and a namespace named.
    const { proc, session } = await child(`k8s://default/${env.namespace}`, 'kill', {
      KUBECONFIG: env.kubeconfig,
    });
    expect(await leftOver(cluster, session), 'a Job, its pod and the anchor').to.equal(3);
    const reapers = reapersOf(session);
    expect(reapers, 'one reaper stands by').to.have.length(1);
    const exited = new Promise((resolve) => proc.on('exit', resolve));
    proc.kill('SIGKILL');
    await exited;
    const took = await within(15_000, async () => (await leftOver(cluster, session)) === 0);
    expect(took, 'everything of the session gone within 15 s').to.not.equal(undefined);
    console.log(`    gone ${took} ms after the SIGKILL`);
    const ended = await within(30_000, () => reapersOf(session).length === 0);
    expect(ended, 'the reaper ended').to.not.equal(undefined);
  });

  it('closed normally: nothing is left, and the reaper exits', async () => {
    // The kubeconfig named by its path (its context's namespace).
    const { proc, session, out } = await child(`k8s://${env.kubeconfig}`, 'close');
    expect(reapersOf(session), 'one reaper stands by').to.have.length(1);
    const code = await new Promise((resolve) => proc.on('exit', resolve));
    expect(code).to.equal(0);
    expect(out()).to.include('closed');
    const took = await within(30_000, async () => (await leftOver(cluster, session)) === 0);
    expect(took, 'nothing of the session left').to.not.equal(undefined);
    const ended = await within(30_000, () => reapersOf(session).length === 0);
    expect(ended, 'the reaper exited').to.not.equal(undefined);
    console.log(
      `    nothing left ${took} ms after the close; the reaper ended within ${ended} ms more`,
    );
  });
});
