/**
 * The copied file strategy: a Docker engine that cannot see the host's disk
 * (another machine, or one whose disk the campaign must not rely on), so no
 * bind mount of a host path. Read-only shared files (an agent's binary) cross
 * once per engine, into named volumes mounted read-only (file-cache.ts).
 *
 * In: folders, files, the socket folders and the tunnel program go in as one
 * tar stream built on the host (sync/pack.ts), owners and modes set in the
 * tar headers: a writable folder is its owner's (the work tree uid 1000), a
 * read-only one root's with no write bit for the agent. Out: a delta sync
 * (copied-files.ts). The main process is root's, holding only
 * CAP_DAC_READ_SEARCH back, so that the harness's execs inherit it and can
 * read whatever modes the agent left; the spec's `user` is the keeper's.
 *
 * Sockets: the sandbox has network none and no mounts, so each named host
 * socket is served inside by the tunnel program (stand-in/tunnel) run as the
 * keeper (never the agent) in a folder it owns with mode 0711, and every
 * connection is carried over that exec's stdio (tunnel.ts). Frames are
 * untrusted: capped, names checked, connections bounded.
 */
import { readFile as readHostFile } from 'node:fs/promises';
import path from 'node:path';
import { projectRoot } from '../../image/index.js';
import type { DockerClient } from '../../runtime/index.js';
import { SandboxError } from '../errors.js';
import { shipImage } from '../ship-image.js';
import {
  DEFAULT_REMOTE_LIMITS,
  packItems,
  ROOT,
  type PackItem,
  type RemoteLimits,
} from '../sync/index.js';
import type { Owner, SandboxSpec } from '../types.js';
import { CopiedFiles, HARNESS_USER } from './copied-files.js';
import { FileCache } from './file-cache.js';
import type { FileStrategy, Placement } from './strategy.js';
import { Tunnel } from './tunnel.js';

/** The work tree's owner when a writable folder names none: the image's user. */
export const AGENT_OWNER: Owner = { uid: 1000, gid: 1000 };
/** The keeper when the spec's user is not numeric. */
const NOBODY: Owner = { uid: 65534, gid: 65534 };
/** Where the tunnel program goes in a sandbox (root's, read only). */
const TUNNEL_DIR = '/run/evalrig-tunnel';
const TUNNEL_PATH = `${TUNNEL_DIR}/tunnel.js`;
const HARNESS_CAPABILITIES = ['DAC_READ_SEARCH'];

export interface CopiedOptions {
  readonly limits?: Partial<RemoteLimits>;
  /** The bundled tunnel program on the host; default dist/stand-in/tunnel/tunnel. */
  readonly tunnelProgram?: string;
}

/** The copied strategy, with the limits it holds its syncs to. */
export interface CopiedStrategy extends FileStrategy {
  readonly limits: RemoteLimits;
}

function ownerOf(user: string | undefined): Owner {
  const m = /^(\d+)(?::(\d+))?$/u.exec(user ?? '');
  if (!m) return NOBODY;
  return { uid: Number(m[1]), gid: Number(m[2] ?? m[1]) };
}

/** Puts the spec's folders, files and sockets in, and starts the tunnel. */
async function fill(
  files: CopiedFiles,
  engine: string,
  client: DockerClient,
  container: Parameters<typeof Tunnel.open>[1],
  spec: SandboxSpec,
  keeper: Owner,
  tunnelProgram: string,
): Promise<void> {
  const items: PackItem[] = [];
  for (const folder of spec.folders ?? []) {
    const readOnly = folder.readOnly ?? false;
    const owner = readOnly ? ROOT : (folder.owner ?? AGENT_OWNER);
    items.push({ kind: 'folder', host: folder.host, container: folder.container, owner, readOnly });
  }
  for (const file of spec.files ?? []) {
    items.push({ kind: 'file', host: file.host, container: file.container });
  }
  const routes = new Map<string, string>();
  for (const shared of spec.sockets ?? []) {
    items.push({ kind: 'dir', container: shared.container, mode: 0o711, owner: keeper });
    for (const name of shared.names) {
      if (!/^[A-Za-z0-9._-]+$/u.test(name) || name === '.' || name === '..') {
        throw new SandboxError(
          engine,
          'start',
          `a socket name that is not a plain name: ${JSON.stringify(name)}`,
        );
      }
      routes.set(path.posix.join(shared.container, name), path.join(shared.host, name));
    }
  }
  if (routes.size > 0) {
    const program = await readHostFile(tunnelProgram).catch((error: unknown) => {
      throw new SandboxError(
        engine,
        'start',
        `the tunnel program ${tunnelProgram} is missing (run npm run build)`,
        { cause: error },
      );
    });
    items.push({ kind: 'dir', container: TUNNEL_DIR, mode: 0o755, owner: ROOT });
    items.push({
      kind: 'bytes',
      container: TUNNEL_PATH,
      content: program,
      mode: 0o644,
      owner: ROOT,
    });
  }
  if (items.length > 0) await files.put(packItems(items));
  for (const folder of spec.folders ?? []) {
    if (!folder.readOnly) await files.wentIn(folder.container, folder.host);
  }
  if (routes.size > 0) {
    files.tunnel = await Tunnel.open(client.docker, container, {
      routes,
      user: `${keeper.uid}:${keeper.gid}`,
      program: TUNNEL_PATH,
    });
  }
}

/** The copied strategy on `client`'s engine, named `name` in errors. */
export function copiedFiles(
  client: DockerClient,
  name: string,
  options: CopiedOptions = {},
): CopiedStrategy {
  const limits = { ...DEFAULT_REMOTE_LIMITS, ...options.limits };
  const tunnelProgram =
    options.tunnelProgram ?? path.join(projectRoot(), 'dist', 'stand-in', 'tunnel', 'tunnel');
  /** The shared read-only files (an agent's binary), once per engine as volumes. */
  const cache = new FileCache(client, name);
  const place = async (spec: SandboxSpec): Promise<Placement> => {
    const keeper = ownerOf(spec.user);
    const { binds, copied } = await cache
      .mounts(spec.files ?? [], spec.image)
      .catch((error: unknown) => {
        throw new SandboxError(name, 'start', (error as Error).message, { cause: error });
      });
    return {
      container: {
        // Root holds CAP_DAC_READ_SEARCH only when the main process is root's (an
        // exec inherits the main process's capabilities); the agent can signal
        // neither it nor the keeper's tunnel.
        user: HARNESS_USER,
        rootCapabilities: HARNESS_CAPABILITIES,
        // Named volumes of this engine (the shared files' cache), read-only: no host path.
        binds,
      },
      files: async (run) => {
        const files = new CopiedFiles(client, name, run, limits, spec.diskBytes);
        const inside = { ...spec, files: copied };
        await fill(files, name, client, run.container, inside, keeper, tunnelProgram);
        return files;
      },
    };
  };
  return {
    kind: 'copied',
    mountsHostFolders: false,
    local: false,
    limits,
    ensureImage: (image, from) => shipImage(client, name, image, from),
    place,
  };
}
