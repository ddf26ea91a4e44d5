/**
 * A node lost mid-campaign on the real 2-node test cluster: once run pods hold
 * both nodes, the second node's kubelet is SIGKILLed (its pid from the
 * cluster script's state folder). Only the runs in flight there fail, for the
 * harness, and each is played once more on the node left, as the provider
 * avoids a node whose pods it could not reach. The kubelet is started again
 * (the script's idempotent `start`) and the same command has nothing to play.
 */
import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { LABELS } from '../../src/sandbox/index.js';
import { labelValue, openCluster, type Cluster } from '../../src/sandbox/kubernetes/index.js';
import { requireDocker } from '../support/docker.js';
import { campaignOf, cli, runRecords } from '../support/faults.js';
import { CLUSTER_SCRIPT, requireCluster, type K8sCluster } from '../support/k8s.js';
import { makeToyWorkspace, type ToyWorkspace } from '../support/toy.js';

/** The node each run pod of the campaign in `outDir` is on once Running, by its run label. */
async function runningPods(cluster: Cluster, outDir: string): Promise<Map<string, string>> {
  const placed = new Map<string, string>();
  const campaign = await campaignOf(outDir);
  if (!campaign) return placed;
  const pods = await cluster.core.listNamespacedPod({
    namespace: cluster.namespace,
    labelSelector: `${LABELS.campaign}=${labelValue(campaign)},${LABELS.run}`,
  });
  for (const pod of pods.items) {
    const run = pod.metadata?.labels?.[LABELS.run];
    if (run && pod.spec?.nodeName && pod.status?.phase === 'Running')
      placed.set(run, pod.spec.nodeName);
  }
  return placed;
}

/** The live pid of kubelet `n`, as the cluster script recorded it. */
async function kubeletPid(env: K8sCluster, n: number): Promise<number> {
  const pid = Number((await readFile(path.join(env.state, `kubelet${n}.pid`), 'utf8')).trim());
  const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8');
  if (!cmdline.includes('kubelet')) throw new Error(`pid ${pid} is no kubelet: ${cmdline}`);
  return pid;
}

describe('a node whose kubelet is killed mid-campaign (the real cluster)', function () {
  this.timeout(900_000);
  let env: K8sCluster;
  let ws: ToyWorkspace;

  before(async function () {
    env = await requireCluster(this);
    await requireDocker();
    ws = await makeToyWorkspace({
      scripts: { slow: { turns: [{ actions: [{ sleep: 20 }, { stop: 'conformant' }] }] } },
      set: { conditions: { a: {}, b: {} }, evals: [{ id: 'slow', prompt: 'wait', runs: 2 }] },
    });
  });
  after(async () => {
    // The cluster is every later test's: its kubelet comes back whatever happened here.
    if (env) await execa('bash', [CLUSTER_SCRIPT, 'start', '2'], { reject: false });
    await ws?.cleanup();
  });

  it('fails only the runs in flight on that node, for the harness, and plays them once more on the node left', async () => {
    const cluster = openCluster({ kubeconfig: env.kubeconfig, namespace: env.namespace });
    const args = ['run', ws.evalSetFile, '--out', ws.outDir, '--jobs', '4', '--no-report'];
    const engine = ['--engine', env.kubeconfig, '--image-registry', env.registry];
    const playing = cli([...args, ...engine]);
    // Every run holds a Running pod and both nodes hold one: then the second node is lost.
    let placed = new Map<string, string>();
    const deadline = Date.now() + 300_000;
    while (placed.size < 4 || new Set(placed.values()).size < 2) {
      if (Date.now() > deadline) throw new Error(`pods never held both nodes: ${[...placed]}`);
      await new Promise((r) => setTimeout(r, 200));
      placed = await runningPods(cluster, ws.outDir);
    }
    const lostNode = '127.0.0.2';
    process.kill(await kubeletPid(env, 2), 'SIGKILL');
    const r = await playing;

    // The runs in flight there failed for the harness, and only those: each was played once
    // more, on the node left (the provider avoids a node it lost), and completed.
    const onLost = new Set([...placed].filter(([, node]) => node === lostNode).map(([run]) => run));
    expect(onLost.size, 'runs in flight on the lost node').to.be.greaterThan(0);
    const lost = [...r.stderr.matchAll(/evalrig: (\S+): failed for the harness/gu)].map(
      (m) => m[1]!,
    );
    expect(lost.length, r.stderr).to.be.greaterThan(0);
    for (const key of lost)
      expect(
        onLost.has(labelValue(key)),
        `${key} failed, yet it was not on the lost node`,
      ).to.equal(true);
    expect(r.stderr).to.contain(`${lost.length} played once more after a harness failure`);
    expect(r.exitCode, r.stderr).to.equal(0);
    const records = (await runRecords(ws.outDir)).map((x) => x.record);
    expect(records.filter((x) => x.status === 'completed')).to.have.length(4);

    // The node back, the same command finds nothing left to play.
    const back = await execa('bash', [CLUSTER_SCRIPT, 'start', '2'], { reject: false });
    expect(back.exitCode, back.stderr).to.equal(0);
    const again = await cli([...args, ...engine]);
    expect(again.exitCode, again.stderr).to.equal(0);
    expect(again.stderr).to.contain('0 played, 4 skipped');
  });
});
