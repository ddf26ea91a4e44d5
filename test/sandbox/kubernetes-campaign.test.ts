/**
 * A whole campaign on the real 2-node test cluster (test/support/k8s.ts): the
 * nominal toy campaign played with `--engine <restricted kubeconfig>
 * --image-registry <the cluster's registry> --jobs 2`. Its runs complete, each
 * run.json names the cluster, its pods are seen on the cluster while it plays
 * and nothing of it is left after, and it measures exactly what the same
 * campaign measures on the machine's Docker engine.
 */
import { expect } from 'chai';
import path from 'node:path';
import { LABELS } from '../../src/sandbox/index.js';
import { labelValue, openCluster, type Cluster } from '../../src/sandbox/kubernetes/index.js';
import { requireDocker } from '../support/docker.js';
import { expectBothRunsCompleted, measuredOf, nominalWorkspace } from '../support/engines.js';
import { campaignOf, cli, runRecords } from '../support/faults.js';
import { requireCluster, type K8sCluster } from '../support/k8s.js';
import type { ToyWorkspace } from '../support/toy.js';

interface SeenPods {
  readonly runs: Set<string>;
  readonly nodes: Set<string>;
  readonly sessions: Set<string>;
}

/** The run pods of the campaign in `outDir` the cluster held while `running` lasted. */
async function podsWhile(running: Promise<unknown>, outDir: string, cluster: Cluster) {
  const seen: SeenPods = { runs: new Set(), nodes: new Set(), sessions: new Set() };
  let done = false;
  void running.finally(() => {
    done = true;
  });
  while (!done) {
    const campaign = await campaignOf(outDir);
    if (campaign) {
      const pods = await cluster.core.listNamespacedPod({
        namespace: cluster.namespace,
        labelSelector: `${LABELS.campaign}=${labelValue(campaign)}`,
      });
      for (const pod of pods.items) {
        const labels = pod.metadata?.labels ?? {};
        if (labels[LABELS.session]) seen.sessions.add(labels[LABELS.session]!);
        // The preflight's pod carries the campaign's label only: a run's has its run label.
        if (!labels[LABELS.run]) continue;
        seen.runs.add(pod.metadata!.name!);
        if (pod.spec?.nodeName) seen.nodes.add(pod.spec.nodeName);
      }
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return seen;
}

/** Jobs, pods and anchors of these sessions still there, polled until none or the deadline. */
async function leftAfter(cluster: Cluster, sessions: ReadonlySet<string>): Promise<number> {
  const deadline = Date.now() + 150_000;
  for (;;) {
    let left = 0;
    for (const session of sessions) {
      const query = { namespace: cluster.namespace, labelSelector: `${LABELS.session}=${session}` };
      const [jobs, pods, maps] = await Promise.all([
        cluster.batch.listNamespacedJob(query),
        cluster.core.listNamespacedPod(query),
        cluster.core.listNamespacedConfigMap(query),
      ]);
      left += jobs.items.length + pods.items.length + maps.items.length;
    }
    if (left === 0 || Date.now() > deadline) return left;
    await new Promise((r) => setTimeout(r, 500));
  }
}

describe('a campaign on the Kubernetes cluster', function () {
  this.timeout(600_000);
  let env: K8sCluster;
  let ws: ToyWorkspace;

  before(async function () {
    env = await requireCluster(this);
    await requireDocker();
    ws = await nominalWorkspace();
  });
  after(async () => {
    await ws?.cleanup();
  });

  it('plays on the cluster, names it in each run, leaves nothing, and measures what Docker measures', async () => {
    const onDocker = path.join(ws.root, 'docker');
    const onCluster = path.join(ws.root, 'cluster');
    const local = await cli([
      'run',
      ws.evalSetFile,
      '--out',
      onDocker,
      '--jobs',
      '2',
      '--no-report',
    ]);
    expect(local.exitCode, local.stderr).to.equal(0);
    const cluster = openCluster({ kubeconfig: env.kubeconfig, namespace: env.namespace });
    const playing = cli([
      'run',
      ws.evalSetFile,
      '--out',
      onCluster,
      '--jobs',
      '2',
      '--no-report',
      '--engine',
      env.kubeconfig,
      '--image-registry',
      env.registry,
    ]);
    const seen = await podsWhile(playing, onCluster, cluster);
    const played = await playing;
    expect(played.exitCode, played.stderr).to.equal(0);
    await expectBothRunsCompleted(onCluster);
    expect(seen.runs.size, 'run pods seen on the cluster').to.equal(2);
    for (const { record } of await runRecords(onCluster)) {
      expect(record.engine).to.deep.include({ address: env.kubeconfig, kind: 'kubernetes' });
    }
    expect(await leftAfter(cluster, seen.sessions), 'left on the cluster').to.equal(0);
    const a = await measuredOf(onDocker);
    const b = await measuredOf(onCluster);
    expect(Object.keys(a)).to.have.length(2);
    expect(b).to.deep.equal(a);
  });
});
