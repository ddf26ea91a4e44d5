import type { IncomingMessage } from 'node:http';
import type Docker from 'dockerode';
import { bounded, statusOf, type DockerClient } from '../runtime/index.js';
import { SandboxFileError } from './errors.js';

/** The type bits of Go's os.FileMode, in which the archive endpoint's path stat spells a mode. */
const TYPE_BITS: ReadonlyArray<readonly [number, string]> = [
  [2 ** 31, 'directory'],
  [2 ** 27, 'symlink'],
  [2 ** 26, 'device'],
  [2 ** 25, 'fifo'],
  [2 ** 24, 'socket'],
  [2 ** 21, 'character-device'],
  [2 ** 19, 'irregular'],
];

/** The type a path stat's mode names, or undefined for a regular file. */
export function typeOfMode(mode: number): string | undefined {
  return TYPE_BITS.find(([bit]) => Math.floor(mode / bit) % 2 === 1)?.[1];
}

/**
 * Refuses `containerPath` unless the engine says it is a regular file,
 * before anything of it is read. Podman's archive endpoint follows a link
 * named last (Docker's never does): its stat (HEAD, not followed) says what
 * the path is first. What a link swapped in between would serve is still a
 * file of the container's own root, and its entry is checked as any other.
 */
export async function refuseUnlessRegular(
  client: DockerClient,
  container: Docker.Container,
  containerPath: string,
): Promise<void> {
  let answer: IncomingMessage;
  try {
    answer = (await bounded(client, 'a path stat', () =>
      container.infoArchive({ path: containerPath }),
    )) as IncomingMessage;
  } catch (error) {
    if (statusOf(error) === 404) throw new SandboxFileError(containerPath, 'missing');
    throw error;
  }
  answer.resume();
  const header = answer.headers['x-docker-container-path-stat'];
  let mode = NaN;
  try {
    mode = Number(
      (JSON.parse(Buffer.from(String(header), 'base64').toString('utf8')) as { mode?: unknown })
        .mode,
    );
  } catch {
    // Unreadable: refused below.
  }
  if (!Number.isFinite(mode)) {
    throw new SandboxFileError(containerPath, 'not-regular', 'the engine gave no path stat');
  }
  const type = typeOfMode(mode);
  if (type !== undefined) throw new SandboxFileError(containerPath, 'not-regular', type);
}
