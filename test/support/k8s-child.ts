/**
 * An evalrig-like process for the kill test: it starts a run's Job as the provider would
 * (anchor, Job, pod running), prints `ready <pod>`, and waits to be killed.
 *   node --import tsx test/support/k8s-child.ts <session>
 */
import {
  anchorName,
  ensureAnchor,
  jobName,
  openCluster,
  startJobPod,
} from '../../src/sandbox/kubernetes/index.js';
import { readCluster } from './k8s.js';

const session = process.argv[2]!;
const image = process.argv[3]!;
// The parent passes the cluster's EVALRIG_K8S_* variables: the same cluster, read once.
const env = await readCluster();
if (typeof env === 'string') throw new Error(env);
const cluster = openCluster({ kubeconfig: env.kubeconfig, namespace: env.namespace });
const labels = { 'evalrig.session': session };
const anchor = await ensureAnchor(cluster, anchorName(session), labels);
const pod = await startJobPod(cluster, {
  name: jobName(session, 'killed/run-01'),
  image,
  labels,
  runKey: 'killed/run-01',
  anchor,
  uid: 1000,
  gid: 1000,
  workingDir: '/tmp',
  env: {},
  cpus: 0.25,
  memoryBytes: 128 << 20,
  diskBytes: 128 << 20,
  activeDeadlineSeconds: 600,
  ttlSecondsAfterFinished: 60,
  command: ['sleep', 'infinity'],
  folders: [{ name: 'tmp', path: '/tmp', sizeBytes: 16 << 20 }],
});
console.log(`ready ${pod}`);
setInterval(() => undefined, 60_000);
