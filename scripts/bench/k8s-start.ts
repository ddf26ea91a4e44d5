/**
 * A Kubernetes run's start and exec against Docker's on this machine, interleaved: a Job's pod
 * created until its first exec answers, and an exec's round trip (`true`), next to `docker run`
 * until its first `docker exec` answers and a `docker exec true`. Figures are medians and their
 * ratios (Kubernetes / Docker). Needs the test cluster (test/support/k8s.ts) and the base image.
 * Run:
 *   node --import tsx scripts/bench/k8s-start.ts [rounds=5] [execs=20]
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import {
  anchorName,
  ensureAnchor,
  jobName,
  openCluster,
  podExec,
  removeJob,
  startJobPod,
  sweepByLabel,
} from '../../src/sandbox/kubernetes/index.js';
import { BASE_IMAGE } from '../../test/support/docker.js';
import { pushToRegistry, readCluster } from '../../test/support/k8s.js';

const run = promisify(execFile);
const rounds = Number(process.argv[2] ?? 5);
const execs = Number(process.argv[3] ?? 20);

const env = await readCluster();
if (typeof env === 'string') {
  console.error(env);
  process.exit(2);
}
const cluster = openCluster({ kubeconfig: env.kubeconfig, namespace: env.namespace });
const image = pushToRegistry(BASE_IMAGE, env.registry);
const session = `bench-${process.pid}-${Date.now().toString(36)}`;
const labels = { 'evalrig.session': session };
const anchor = await ensureAnchor(cluster, anchorName(session), labels);

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function k8sRound(i: number): Promise<{ start: number; exec: number }> {
  const name = jobName(session, `bench/${i}`);
  const t0 = performance.now();
  const pod = await startJobPod(cluster, {
    name,
    image,
    labels,
    runKey: `bench/${i}`,
    anchor,
    uid: 1000,
    gid: 1000,
    workingDir: '/tmp',
    env: {},
    cpus: 0.5,
    memoryBytes: 256 << 20,
    diskBytes: 256 << 20,
    activeDeadlineSeconds: 600,
    ttlSecondsAfterFinished: 60,
    command: ['sleep', 'infinity'],
    folders: [{ name: 'tmp', path: '/tmp', sizeBytes: 64 << 20 }],
  });
  await podExec(cluster, pod.name, ['true']);
  const start = performance.now() - t0;
  const times: number[] = [];
  for (let j = 0; j < execs; j++) {
    const t = performance.now();
    await podExec(cluster, pod.name, ['true']);
    times.push(performance.now() - t);
  }
  await removeJob(cluster, name);
  return { start, exec: median(times) };
}

async function dockerRound(): Promise<{ start: number; exec: number }> {
  const t0 = performance.now();
  const { stdout } = await run('docker', [
    'run',
    '-d',
    '--rm',
    '--network',
    'none',
    '--user',
    '1000:1000',
    '--read-only',
    '--cap-drop',
    'ALL',
    '--label',
    `evalrig.session=${session}`,
    BASE_IMAGE,
    'sleep',
    'infinity',
  ]);
  const id = stdout.trim();
  await run('docker', ['exec', id, 'true']);
  const start = performance.now() - t0;
  const times: number[] = [];
  for (let j = 0; j < execs; j++) {
    const t = performance.now();
    await run('docker', ['exec', id, 'true']);
    times.push(performance.now() - t);
  }
  await run('docker', ['rm', '-f', id]);
  return { start, exec: median(times) };
}

const k8s: { start: number; exec: number }[] = [];
const docker: { start: number; exec: number }[] = [];
try {
  for (let i = 0; i < rounds; i++) {
    k8s.push(await k8sRound(i));
    docker.push(await dockerRound());
  }
} finally {
  await sweepByLabel(cluster, labels);
}
const ks = median(k8s.map((r) => r.start));
const ds = median(docker.map((r) => r.start));
const ke = median(k8s.map((r) => r.exec));
const de = median(docker.map((r) => r.exec));
console.log(
  `start to first exec: kubernetes ${ks.toFixed(0)} ms, docker ${ds.toFixed(0)} ms, ratio ${(ks / ds).toFixed(2)}x`,
);
console.log(
  `exec round trip: kubernetes ${ke.toFixed(1)} ms, docker ${de.toFixed(1)} ms, ratio ${(ke / de).toFixed(2)}x`,
);
