import { randomBytes } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { WorkspaceError } from './types.js';

/**
 * A new mark for the quotas one campaign mounts (their source is
 * `evalrig-quota.<owner>` / `evalrig-view.<owner>`): its reaper removes only
 * those, never the quotas of a campaign resumed in the same folder meanwhile.
 */
export function newQuotaOwner(): string {
  return `${process.pid}-${randomBytes(4).toString('hex')}`;
}

/** What a run may write when the eval set says nothing (bytes). */
export const DEFAULT_DISK_BYTES = 2 * 1024 ** 3;

/**
 * A disk quota for what a run writes: the prepared workspace (`base`) is
 * the read-only lower layer of an overlay whose upper layer is a tmpfs of
 * `bytes`; the container sees the overlay (`view`). `owner` marks the mounts
 * (see {@link newQuotaOwner}). Writes beyond the quota
 * fail with ENOSPC in the container, the prepared files (and the cache objects
 * hardlinked into them) are never written, and removing the run is two
 * unmounts. The upper layer lives in memory, charged to the writer's memory
 * cgroup: a run can never write more than its memory limit either.
 *
 * Needs root (mount); evalrig as another user runs without a quota.
 */
export interface QuotaView {
  /** The merged folder the run sees (mount point of the overlay). */
  readonly view: string;
  readonly bytes: number;
  /** Unmounts the overlay and the tmpfs (the run's writes are gone). Idempotent. */
  unmount(): Promise<void>;
}

/** Whether quotas can be mounted here (evalrig runs as root on Linux). */
export function canMountQuota(): boolean {
  return process.platform === 'linux' && process.getuid?.() === 0;
}

async function mount(args: readonly string[]): Promise<void> {
  const r = await execa('mount', [...args], { reject: false, timeout: 30_000 });
  if (r.exitCode !== 0) {
    throw new WorkspaceError(`mount ${args.join(' ')} failed: ${String(r.stderr).trim()}`);
  }
}

/** Mounts under way (their root), awaited by `closeQuotas` before its sweep. */
const pending = new Map<Promise<void>, string>();
/** Folders whose campaign is stopping: no quota is mounted under them any more. */
const closedFolders = new Set<string>();

function isUnder(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder.endsWith('/') ? folder : `${folder}/`);
}

async function unmountIfMounted(target: string): Promise<void> {
  // -l: a process of the orchestrator still reading it does not keep it mounted.
  await execa('umount', ['-l', target], { reject: false, timeout: 30_000 });
}

/**
 * Mounts the quota for the workspace prepared in `base`, under `root`:
 * `root/quota` (tmpfs: `upper`, `scratch`) and `root/view` (the overlay).
 *
 * @example
 * const quota = await mountQuota(envRoot, join(envRoot, 'base'), 2 * 1024 ** 3, owner);
 * // bind quota.view/work into the container ... then:
 * await quota.unmount();
 */
export async function mountQuota(
  root: string,
  base: string,
  bytes: number,
  owner: string,
): Promise<QuotaView> {
  // A campaign that is stopping mounts nothing more: a mount landing after its
  // last sweep would outlive the process (and keep the folder busy).
  if ([...closedFolders].some((folder) => isUnder(root, folder))) {
    throw new WorkspaceError(`no quota mounted under ${root}: the campaign is stopping`);
  }
  const mounting = mountQuotaNow(root, base, bytes, owner);
  const settled = mounting.then(
    () => undefined,
    () => undefined,
  );
  pending.set(settled, root);
  void settled.finally(() => pending.delete(settled));
  return mounting;
}

async function mountQuotaNow(
  root: string,
  base: string,
  bytes: number,
  owner: string,
): Promise<QuotaView> {
  const tmpfs = join(root, 'quota');
  const view = join(root, 'view');
  await mkdir(tmpfs, { recursive: true, mode: 0o700 });
  await mkdir(view, { recursive: true, mode: 0o700 });
  await mount(['-t', 'tmpfs', '-o', `size=${bytes},mode=0700`, `evalrig-quota.${owner}`, tmpfs]);
  const unmount = async (): Promise<void> => {
    await unmountIfMounted(view);
    await unmountIfMounted(tmpfs);
  };
  try {
    await mkdir(join(tmpfs, 'upper'), { mode: 0o755 });
    await mkdir(join(tmpfs, 'scratch'), { mode: 0o700 });
    await mount([
      '-t',
      'overlay',
      '-o',
      `lowerdir=${base},upperdir=${join(tmpfs, 'upper')},workdir=${join(tmpfs, 'scratch')}`,
      `evalrig-view.${owner}`,
      view,
    ]);
  } catch (error) {
    await unmount();
    throw error;
  }
  return { view, bytes, unmount };
}

/**
 * Unmounts every quota left mounted under `folder` (by an orchestrator that
 * was killed), deepest first. Returns how many mounts were removed.
 */
export async function sweepQuotas(folder: string): Promise<number> {
  const table = await readFile('/proc/self/mountinfo', 'utf8').catch(() => '');
  const prefix = folder.endsWith('/') ? folder : `${folder}/`;
  const targets = table
    .split('\n')
    .map((line) => line.split(' ')[4] ?? '')
    .map((target) => target.replace(/\\040/gu, ' '))
    .filter((target) => target.startsWith(prefix))
    .sort((a, b) => b.length - a.length);
  for (const target of targets) await unmountIfMounted(target);
  return targets.length;
}

/**
 * The stopping campaign's sweep: no quota is mounted under `folder` from now
 * on, the mounts under way there land (or fail), then every quota left under
 * it is unmounted. Returns how many mounts were removed.
 *
 * @example
 * onInterrupt(async () => { await closeQuotas(work); });
 */
export async function closeQuotas(folder: string): Promise<number> {
  closedFolders.add(folder);
  const underWay = [...pending].filter(([, root]) => isUnder(root, folder)).map(([p]) => p);
  await Promise.all(underWay);
  return sweepQuotas(folder);
}
