import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { readFile, readdir, readlink } from 'node:fs/promises';
import { execa } from 'execa';
import { CLUSTER_SCRIPT, kubectl, requireCluster, type K8sCluster } from '../support/k8s.js';

/** The pids `status` reports for the cluster's own processes, by name. */
async function clusterPids(): Promise<Map<string, number>> {
  const { stdout } = await execa('bash', [CLUSTER_SCRIPT, 'status']);
  const pids = new Map<string, number>();
  for (const m of stdout.matchAll(/^(\S+): running \(pid (\d+)\)$/gm))
    pids.set(m[1]!, Number(m[2]));
  return pids;
}

/** A /proc/net/tcp{,6} address (hex, host byte order per 32-bit word) is on loopback. */
function loopback(hex: string): boolean {
  const ip = hex.split(':')[0]!;
  if (ip.length === 8) return ip.endsWith('7F');
  if (ip === '00000000000000000000000001000000') return true; // ::1
  return ip.startsWith('0000000000000000FFFF0000') && ip.endsWith('7F'); // ::ffff:127.x
}

/** Every TCP socket a process holds: its local and remote addresses and state. */
async function tcpSockets(
  pid: number,
): Promise<{ local: string; remote: string; state: string }[]> {
  const inodes = new Set<string>();
  for (const fd of await readdir(`/proc/${pid}/fd`)) {
    const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
    const m = /^socket:\[(\d+)\]$/.exec(target);
    if (m) inodes.add(m[1]!);
  }
  const sockets = [];
  for (const table of ['tcp', 'tcp6']) {
    const text = await readFile(`/proc/${pid}/net/${table}`, 'utf8');
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length > 9 && inodes.has(f[9]!))
        sockets.push({ local: f[1]!, remote: f[2]!, state: f[3]! });
    }
  }
  return sockets;
}

describe('the test Kubernetes cluster (scripts/k8s-cluster.sh)', function () {
  this.timeout(240_000);
  let cluster: K8sCluster;

  before(async function () {
    cluster = await requireCluster(this);
  });

  it('has two Ready nodes, named by their loopback addresses', async function () {
    const r = await kubectl(cluster, cluster.adminKubeconfig, ['get', 'nodes', '-o', 'json']);
    expect(r.exitCode, r.stderr).to.equal(0);
    const nodes = (
      JSON.parse(r.stdout) as {
        items: {
          metadata: { name: string };
          status: { conditions: { type: string; status: string }[] };
        }[];
      }
    ).items;
    const ready = nodes
      .filter((n) => n.status.conditions.some((c) => c.type === 'Ready' && c.status === 'True'))
      .map((n) => n.metadata.name)
      .sort();
    expect(ready).to.include.members(['127.0.0.1', '127.0.0.2']);
  });

  it('lets the restricted user run a Job pulled from the loopback registry, and exec into it', async function () {
    const name = `evalrig-probe-${randomBytes(3).toString('hex')}`;
    const job = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name, namespace: cluster.namespace },
      spec: {
        backoffLimit: 0,
        template: {
          spec: {
            restartPolicy: 'Never',
            automountServiceAccountToken: false,
            containers: [
              {
                name: 'probe',
                // Always: the node must pull it from the registry, not use its cached copy.
                image: `${cluster.registry}/evalrig/pause:3.4.1`,
                imagePullPolicy: 'Always',
                command: ['/pause'],
                securityContext: {
                  allowPrivilegeEscalation: false,
                  runAsNonRoot: true,
                  runAsUser: 65535,
                },
              },
            ],
          },
        },
      },
    };
    const as = (args: string[], input?: string) =>
      kubectl(cluster, cluster.kubeconfig, args, input);
    try {
      const created = await as(['create', '-f', '-'], JSON.stringify(job));
      expect(created.exitCode, created.stderr).to.equal(0);
      const ready = await as([
        'wait',
        '--for=condition=Ready',
        'pod',
        '-l',
        `job-name=${name}`,
        '--timeout=180s',
      ]);
      expect(ready.exitCode, ready.stderr).to.equal(0);
      const pod = (
        await as([
          'get',
          'pod',
          '-l',
          `job-name=${name}`,
          '-o',
          'jsonpath={.items[0].metadata.name}',
        ])
      ).stdout;
      const exec = await as(['exec', pod, '--', '/pause', '-v']);
      expect(exec.exitCode, exec.stderr).to.equal(0);
      expect(exec.stdout).to.match(/^pause\.c v3\.4\.1-evalrig$/m);
    } finally {
      await as(['delete', 'job', name, '--wait=false', '--cascade=foreground']);
    }
  });

  it('forbids the restricted user secrets and every other namespace', async function () {
    const as = (args: string[]) => kubectl(cluster, cluster.kubeconfig, args);
    const secrets = await as(['get', 'secrets']);
    expect(secrets.exitCode).to.not.equal(0);
    expect(secrets.stderr).to.match(/Forbidden/);
    for (const ns of ['default', 'kube-system']) {
      const pods = await as(['-n', ns, 'get', 'pods']);
      expect(pods.exitCode).to.not.equal(0);
      expect(pods.stderr).to.match(/Forbidden/);
    }
    const nodes = await as(['get', 'nodes']);
    expect(nodes.stderr).to.match(/Forbidden/);
  });

  it('reaches nothing but loopback: every TCP socket of the cluster is on 127.x', async function () {
    const pids = await clusterPids();
    const names = [...pids.keys()].filter((n) => /^(kubelet\d|kube-|etcd|registry)/.test(n));
    expect(names).to.include.members([
      'etcd',
      'kube-apiserver',
      'kube-controller-manager',
      'kubelet1',
      'kubelet2',
    ]);
    for (const name of names) {
      const sockets = await tcpSockets(pids.get(name)!);
      expect(sockets.length, `${name} holds TCP sockets`).to.be.greaterThan(0);
      for (const s of sockets) {
        // A listener's peer is 0; what it listens on must then be loopback.
        const where = s.state === '0A' ? s.local : s.remote;
        expect(loopback(where), `${name}: ${s.local} -> ${s.remote} (state ${s.state})`).to.equal(
          true,
        );
      }
    }
  });

  it('runs every kubelet with the cloud metadata lookup disabled', async function () {
    const pids = await clusterPids();
    const kubelets = [...pids].filter(([n]) => /^kubelet\d$/.test(n));
    expect(kubelets).to.have.length.of.at.least(2);
    for (const [name, pid] of kubelets) {
      const environ = (await readFile(`/proc/${pid}/environ`, 'utf8')).split('\0');
      expect(environ, name).to.include('AWS_EC2_METADATA_DISABLED=true');
    }
  });

  it("leaves the main engine's docker0 in place", async function () {
    const link = await execa('ip', ['-o', 'link', 'show', 'docker0'], { reject: false });
    expect(link.exitCode, link.stderr).to.equal(0);
  });
});
