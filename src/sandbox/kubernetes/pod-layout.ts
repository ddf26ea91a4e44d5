/**
 * Where a spec's folders, files and sockets go in a run's pod, and who sees
 * each (src/sandbox/kubernetes.md, "How a SandboxSpec maps onto it"). The
 * root filesystem is read-only, so every place written to is an emptyDir: the
 * agent's own (work tree, origin, home, /tmp), the keeper's alone (its /tmp,
 * the tunnel program), or shared (the keeper writes, the agent only reads:
 * the eval set, the agent's binary, the socket folders).
 */
import path from 'node:path';
import { SandboxError } from '../errors.js';
import type { SandboxSpec } from '../types.js';
import type { JobFolder } from './job-spec.js';

/** The keeper's own folder for the tunnel program: the agent never sees it. */
export const TUNNEL_DIR = '/run/evalrig-tunnel';
export const TUNNEL_PATH = `${TUNNEL_DIR}/tunnel.js`;

/** A folder of sockets or shares holds little: a socket takes no space. */
const SHARED_SMALL = 64 * 1024 * 1024;
/** The tunnel program: one bundled file. */
const TUNNEL_BYTES = 16 * 1024 * 1024;

export interface PodLayout {
  readonly folders: readonly JobFolder[];
  /** Socket path in the pod → host socket path: what the tunnel carries. */
  readonly routes: ReadonlyMap<string, string>;
  /**
   * The agent container's working directory: the mount that holds the spec's (the spec's own
   * when it is one). A missing working directory would be made by the runtime, as root.
   */
  readonly containerWorkingDir: string;
}

/** Whether `inner` is `outer` or inside it. */
function within(inner: string, outer: string): boolean {
  return inner === outer || inner.startsWith(outer === '/' ? '/' : `${outer}/`);
}

/**
 * The agent's mounts: each folder copied in is mounted at its parent, so that tar makes the
 * folder itself, owned by the agent (git refuses a work tree whose top is another user's, and
 * a mount point is root's); /tmp and HOME, which the agent writes as on Docker's writable
 * layer; the working directory when no mount holds it. Nested ones are folded into the outer.
 */
function agentPlaces(spec: SandboxSpec, workingDir: string): string[] {
  const wanted = ['/tmp'];
  for (const f of spec.folders ?? []) {
    if (f.readOnly) continue;
    const at = placeOf(f.container);
    const parent = path.posix.dirname(at);
    wanted.push(parent === '/' ? at : parent);
  }
  const home = spec.env?.HOME;
  if (home?.startsWith('/') && placeOf(home) !== '/') wanted.push(placeOf(home));
  wanted.push(placeOf(workingDir));
  const places = [...new Set(wanted)].sort((a, b) => a.length - b.length);
  return places.filter((p, i) => !places.slice(0, i).some((outer) => within(p, outer)));
}

export function podLayout(
  spec: SandboxSpec,
  workingDir: string,
  diskBytes: number,
  engine: string,
): PodLayout {
  const agent = new Set(agentPlaces(spec, workingDir));
  const shared = new Map<string, number>();
  for (const f of spec.folders ?? []) if (f.readOnly) shared.set(placeOf(f.container), diskBytes);
  // The agent's binary and its like: read, never rewritten by the agent (mounted read-only locally).
  for (const f of spec.files ?? []) {
    const dir = path.posix.dirname(placeOf(f.container));
    shared.set(dir, Math.max(shared.get(dir) ?? 0, diskBytes));
  }
  const routes = new Map<string, string>();
  for (const s of spec.sockets ?? []) {
    const dir = placeOf(s.container);
    if (!shared.has(dir)) shared.set(dir, SHARED_SMALL);
    for (const name of s.names) {
      if (!/^[A-Za-z0-9._-]+$/u.test(name) || name === '.' || name === '..') {
        throw new SandboxError(
          engine,
          'start',
          `a socket name that is not a plain name: ${JSON.stringify(name)}`,
        );
      }
      routes.set(path.posix.join(dir, name), path.join(s.host, name));
    }
  }
  for (const dir of shared.keys()) {
    if (agent.has(dir))
      throw new SandboxError(engine, 'start', `${dir}: both written by the agent and read-only`);
  }
  const folders: JobFolder[] = [
    ...[...agent].map((p, i) => ({ name: `place-${i}`, path: p, sizeBytes: diskBytes })),
    ...[...shared].map(([p, size], i) => ({
      name: `shared-${i}`,
      path: p,
      sizeBytes: size,
      access: 'shared' as const,
    })),
    // Where the keeper stages what it unpacks (the eval set): as large as the agent's.
    { name: 'keeper-tmp', path: '/tmp', sizeBytes: diskBytes, access: 'keeper' },
  ];
  if (routes.size > 0)
    folders.push({ name: 'tunnel', path: TUNNEL_DIR, sizeBytes: TUNNEL_BYTES, access: 'keeper' });
  const containerWorkingDir = [...agent].find((p) => within(placeOf(workingDir), p))!;
  return { folders, routes, containerWorkingDir };
}

/** One spelling per folder: `/evalset/` and `/evalset` are one mount. */
function placeOf(container: string): string {
  const normal = path.posix.normalize(container);
  return normal.length > 1 ? normal.replace(/\/+$/u, '') : normal;
}

/** The keeper's uid when the spec names none, or root (a pod runs no root). */
const KEEPER = { uid: 65534, gid: 65534 };

/**
 * The keeper's uid:gid: the spec's main user, unless it is root (no pod runs as root),
 * absent, or the agent's own (a short-lived sandbox run as one user): then 65534.
 */
export function keeperOf(
  spec: SandboxSpec,
  agent: { readonly uid: number; readonly gid: number },
): { uid: number; gid: number } {
  const [uid, gid] = (spec.user ?? '').split(':').map(Number);
  if (Number.isInteger(uid) && uid! > 0 && uid !== agent.uid)
    return { uid: uid!, gid: Number.isInteger(gid) ? gid! : uid! };
  return agent.uid === KEEPER.uid ? { uid: KEEPER.uid - 1, gid: KEEPER.gid - 1 } : KEEPER;
}

/** The keeper owns a shared file: the agent reads it (and runs it, when it is a program). */
export function readableMode(mode: number): number {
  const bits = mode & 0o777;
  return bits & 0o111 ? bits | 0o555 : bits | 0o444;
}
