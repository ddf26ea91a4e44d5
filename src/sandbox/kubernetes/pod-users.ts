/**
 * Kubernetes has no per-exec user: each of a pod's two users is a container's
 * (the agent's runAsUser, the keeper's). An exec or a file of a user runs in,
 * or is written by, the container of that user; any other user has none.
 */
import type { Owner } from '../types.js';

export function ownerOf(user: string): Owner {
  const [uid, gid] = user.split(':').map(Number);
  return { uid: uid!, gid: gid ?? uid! };
}

function sameOwner(a: Owner, b: Owner): boolean {
  return a.uid === b.uid && a.gid === b.gid;
}

/** The container an exec as `user` runs in (none asked: the agent's), or undefined. */
export function containerOfUser(
  user: string | undefined,
  agent: string,
  keeper: string | undefined,
): 'agent' | 'keeper' | undefined {
  if (user === undefined || user === agent) return 'agent';
  return user === keeper ? 'keeper' : undefined;
}

/** The container whose user is `owner` (none given: the agent's), or undefined. */
export function containerOwning(
  owner: Owner | undefined,
  agent: Owner,
  keeper: Owner | undefined,
): 'agent' | 'keeper' | undefined {
  if (!owner || sameOwner(owner, agent)) return 'agent';
  return keeper && sameOwner(owner, keeper) ? 'keeper' : undefined;
}
