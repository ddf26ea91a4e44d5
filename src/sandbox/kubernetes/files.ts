/**
 * Files in and out of a pod by tar over exec, with the remote Docker
 * provider's modules: pack.ts builds what goes in, listing.ts and apply.ts
 * bring back only what changed, refusing links out of the tree, FIFOs,
 * devices and what is over the limits. Input crosses as a file written by
 * `dd` that reads exactly its length (exec cannot close stdin, see exec.ts).
 */
import { randomBytes } from 'node:crypto';
import { lstat, mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Owner, SyncStats } from '../types.js';
import { SandboxFileError } from '../errors.js';
import {
  applyDelta,
  checkDelta,
  DEFAULT_REMOTE_LIMITS,
  diffListings,
  LISTING_FORMAT,
  packItems,
  parseListing,
  tarCreateCommand,
  tarExtractCommand,
  type Listing,
} from '../sync/index.js';
import type { Cluster } from './cluster.js';
import { podExec, PodExecError } from './exec.js';

const LIMITS = DEFAULT_REMOTE_LIMITS;

/** Writes `bytes` to `dest` in the pod: dd stops after exactly that many bytes. */
export async function sendBytes(
  cluster: Cluster,
  pod: string,
  bytes: Buffer,
  dest: string,
  container = 'agent',
): Promise<void> {
  const r = await podExec(
    cluster,
    pod,
    [
      'dd',
      `of=${dest}`,
      'bs=65536',
      'iflag=fullblock,count_bytes',
      `count=${bytes.length}`,
      'status=none',
    ],
    { input: bytes, container },
  );
  if (r.exitCode !== 0)
    throw new PodExecError(`writing ${dest} in pod ${pod}: ${r.stderr.toString().trim()}`);
}

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Copies a host folder's contents to `containerPath`, unpacked by `container` (its user: `owner`). */
export async function copyInto(
  cluster: Cluster,
  pod: string,
  hostFolder: string,
  containerPath: string,
  owner: Owner,
  container = 'agent',
): Promise<void> {
  const archive = await collect(
    packItems([
      { kind: 'folder', host: hostFolder, container: containerPath, owner, readOnly: false },
    ]),
  );
  const staged = `/tmp/.evalrig-in-${randomBytes(6).toString('hex')}.tar`;
  await sendBytes(cluster, pod, archive, staged, container);
  // An existing target (an emptyDir's mount point, root's) is left out: tar would chmod it,
  // which only its owner may.
  const at = { container };
  const mounted = (await podExec(cluster, pod, ['test', '-d', containerPath], at)).exitCode === 0;
  const top = path.posix.normalize(containerPath).replace(/^\/+/u, '');
  const r = await podExec(cluster, pod, tarExtractCommand(staged, mounted ? top : undefined), at);
  await podExec(cluster, pod, ['rm', '-f', staged], at);
  if (r.exitCode !== 0) {
    throw new PodExecError(
      `copying ${hostFolder} into ${containerPath}: ${r.stderr.toString().trim().slice(0, 300)}`,
    );
  }
}

/** A regular file's bytes, at most `maxBytes`: a link, a FIFO or a device is refused, never opened. */
export async function readPodFile(
  cluster: Cluster,
  pod: string,
  containerPath: string,
  maxBytes: number,
): Promise<Buffer> {
  // stat without following links first: a FIFO or a device is never opened.
  const st = await podExec(cluster, pod, ['stat', '-c', '%F|%s', '--', containerPath]);
  if (st.exitCode !== 0) throw new SandboxFileError(containerPath, 'missing');
  const [type, size] = st.stdout.toString().trim().split('|');
  if (type !== 'regular file' && type !== 'regular empty file') {
    throw new SandboxFileError(containerPath, 'not-regular', type ?? '');
  }
  if (Number(size) > maxBytes) {
    throw new SandboxFileError(containerPath, 'too-large', `${size} bytes, the cap is ${maxBytes}`);
  }
  const r = await podExec(cluster, pod, ['head', '-c', String(maxBytes + 1), '--', containerPath]);
  if (r.stdout.length > maxBytes) {
    throw new SandboxFileError(containerPath, 'too-large', `over ${maxBytes} bytes`);
  }
  return r.stdout;
  return r.stdout;
}

/** What `containerPath` holds now (find's listing, see listing.ts). */
export async function listPodFolder(
  cluster: Cluster,
  pod: string,
  containerPath: string,
): Promise<Listing> {
  const r = await podExec(cluster, pod, ['find', '-P', containerPath, '-printf', LISTING_FORMAT], {
    maxOutputBytes: LIMITS.maxListingBytes + 1,
  });
  if (r.stdout.length > LIMITS.maxListingBytes) {
    throw new SandboxFileError(
      containerPath,
      'too-large',
      `a listing over ${LIMITS.maxListingBytes} bytes`,
    );
  }
  if (r.exitCode !== 0) {
    if (r.stdout.length === 0 && /No such file/u.test(r.stderr.toString())) {
      throw new SandboxFileError(containerPath, 'missing');
    }
    throw new PodExecError(`listing ${containerPath}: ${r.stderr.toString().trim().slice(0, 300)}`);
  }
  return parseListing(containerPath, r.stdout, LIMITS);
}

async function emptyFolder(hostFolder: string): Promise<void> {
  await mkdir(hostFolder, { recursive: true });
  if (!(await lstat(hostFolder)).isDirectory())
    throw new Error(`${hostFolder} is not a folder of the host`);
  for (const child of await readdir(hostFolder))
    await rm(path.join(hostFolder, child), { recursive: true, force: true });
}

/**
 * Makes `hostFolder` hold what `containerPath` holds; `before` is the previous
 * sync's listing (absent: the host folder is emptied first). Returns the new listing.
 */
export async function syncFromPod(
  cluster: Cluster,
  pod: string,
  containerPath: string,
  hostFolder: string,
  before: Listing | undefined,
): Promise<{ stats: SyncStats; listing: Listing }> {
  const after = await listPodFolder(cluster, pod, containerPath);
  const delta = diffListings(before ?? new Map(), after);
  checkDelta(hostFolder, delta, LIMITS);
  if (!before) await emptyFolder(hostFolder);
  const names = `/tmp/.evalrig-names-${randomBytes(6).toString('hex')}`;
  const fetch = async (wanted: readonly string[]): Promise<Readable> => {
    await sendBytes(cluster, pod, Buffer.from(wanted.map((n) => `./${n}\0`).join('')), names);
    const r = await podExec(cluster, pod, tarCreateCommand(containerPath, names), {
      maxOutputBytes: LIMITS.maxTotalBytes,
    });
    if (r.exitCode !== 0)
      throw new PodExecError(
        `tar of ${containerPath}: ${r.stderr.toString().trim().slice(0, 300)}`,
      );
    return Readable.from([r.stdout]);
  };
  const stats = await applyDelta(hostFolder, delta, fetch, LIMITS);
  return { stats, listing: after };
}
