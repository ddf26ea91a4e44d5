/**
 * A campaign's throughput on the two-node test cluster against the same
 * campaign pinned to one node: 8 short runs (a 2 s turn each) at --jobs 4,
 * played through the CLI with `--engine <restricted kubeconfig>
 * --image-registry <the cluster's registry>`, first on both nodes, then with
 * every node but the first cordoned (the admin kubeconfig), uncordoned after
 * however it ended. Rounds alternate the two, and the figure is the median
 * ratio of wall times (one node / two nodes: above 1, two nodes are faster).
 * A warm-up campaign first pushes the test image, so no series pays for it.
 *
 * A toy run asks 1 CPU and a test node has 2: two runs fit a node at once.
 * Other pods on the cluster (other sessions) take a share of the nodes too,
 * which each round's load figure shows.
 *
 *   node --import tsx scripts/bench/k8s-campaign.ts [rounds=2]
 */
import { execa } from 'execa';
import { loadavg } from 'node:os';
import path from 'node:path';
import { runRecords } from '../../test/support/faults.js';
import { kubectl, readCluster, type K8sCluster } from '../../test/support/k8s.js';
import { makeToyWorkspace } from '../../test/support/toy.js';

const ROUNDS = Number(process.argv[2] ?? 2);
const CLI = path.resolve(import.meta.dirname, '../../dist/src/cli/main.js');

const env = await readCluster();
if (typeof env === 'string') {
  console.error(env);
  process.exit(2);
}
const cluster: K8sCluster = env;

const ws = await makeToyWorkspace({
  scripts: { short: { turns: [{ actions: [{ sleep: 2 }, { stop: 'conformant' }] }] } },
  set: { conditions: { a: {}, b: {} }, evals: [{ id: 'short', prompt: 'wait', runs: 4 }] },
});

/** Seconds the campaign took, checked: every run completed. */
async function campaign(out: string, expected: number): Promise<number> {
  const t = performance.now();
  const r = await execa(
    'node',
    [
      CLI,
      'run',
      ws.evalSetFile,
      '--out',
      out,
      '--jobs',
      '4',
      '--no-report',
      '--engine',
      cluster.kubeconfig,
      '--image-registry',
      cluster.registry,
    ],
    { reject: false, env: { CI: '1' } },
  );
  const s = (performance.now() - t) / 1000;
  const records = (await runRecords(out)).map((x) => x.record);
  const completed = records.filter((x) => x.status === 'completed').length;
  if (r.exitCode !== 0 || completed !== expected)
    throw new Error(`campaign in ${out}: exit ${r.exitCode}, ${completed} completed\n${r.stderr}`);
  return s;
}

async function admin(args: readonly string[]): Promise<string> {
  const r = await kubectl(cluster, cluster.adminKubeconfig, args);
  if (r.exitCode !== 0) throw new Error(`kubectl ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

const nodes = (await admin(['get', 'nodes', '-o', 'name'])).split('\n').filter(Boolean).sort();
if (nodes.length < 2) throw new Error(`the cluster has ${nodes.length} node(s): this needs two`);
const others = nodes.slice(1);

/** `fn` with every node but the first cordoned; uncordoned after, however it ended. */
async function onOneNode<T>(fn: () => Promise<T>): Promise<T> {
  await admin(['cordon', ...others]);
  try {
    return await fn();
  } finally {
    await admin(['uncordon', ...others]);
  }
}

/** The middle value; of an even count, the mean of the two middle ones. */
function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}
const load = (): string => loadavg()[0]!.toFixed(2);

try {
  // The warm-up: builds and pushes the test image once.
  await campaign(path.join(ws.root, 'warm-up'), 8);
  const ratios: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const two = await campaign(path.join(ws.root, `two-${round}`), 8);
    const loadTwo = load();
    const one = await onOneNode(() => campaign(path.join(ws.root, `one-${round}`), 8));
    ratios.push(one / two);
    console.log(
      `round ${round}: two nodes ${two.toFixed(1)} s (load ${loadTwo}), one node ${one.toFixed(1)} s (load ${load()}), ratio ${(one / two).toFixed(2)}`,
    );
  }
  console.log(
    `8 runs at --jobs 4: one node / two nodes, median of ${ROUNDS}: ${median(ratios).toFixed(2)}x`,
  );
} finally {
  await ws.cleanup();
}
