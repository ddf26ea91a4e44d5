/**
 * The pod's end of the socket tunnel: one long-lived exec in the keeper runs
 * the tunnel program (stand-in/tunnel), and docker/tunnel.ts carries every
 * connection over that exec's streams, as for a remote Docker engine. The
 * agent connects to the sockets through its read-only mount of their folder.
 */
import { Tunnel } from '../docker/tunnel.js';
import type { Cluster } from './cluster.js';
import { podStream } from './exec.js';

/** Resolves once every socket of `routes` (pod path → host path) listens in the pod. */
export async function openPodTunnel(
  cluster: Cluster,
  pod: string,
  routes: ReadonlyMap<string, string>,
  program: string,
  keeperUser: string,
): Promise<Tunnel> {
  // The image's NODE_OPTIONS are the agent's business, not the tunnel's.
  const command = ['env', 'NODE_OPTIONS=', 'PATH=/usr/local/bin:/usr/bin:/bin'];
  const exec = await podStream(
    cluster,
    pod,
    [...command, 'node', program, ...routes.keys()],
    'keeper',
  );
  return Tunnel.attach(exec.stream, exec.stdout, exec.stderr, {
    routes,
    user: keeperUser,
    program,
  });
}
