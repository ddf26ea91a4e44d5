/**
 * A regular file's bytes out of a Docker container, one way for every Docker
 * provider: an absolute path only (a relative one would be read against the
 * engine's idea of the working folder), refused before its bytes cross when it
 * is no regular file or over its cap. Podman's archive follows links, so its
 * path is looked at first.
 */
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type Docker from 'dockerode';
import { bounded, statusOf, type DockerClient } from '../../runtime/index.js';
import { SandboxError, SandboxFileError } from '../errors.js';
import { refuseUnlessRegular } from '../path-stat.js';

/** `containerPath` normalised; a SandboxError naming `engine` when it is not absolute. */
export function absolutePath(engine: string, containerPath: string): string {
  if (!containerPath.startsWith('/')) {
    throw new SandboxError(engine, 'a file operation', `${containerPath} is not an absolute path`);
  }
  return path.posix.normalize(containerPath);
}

/** The bytes of the regular file at `containerPath`, at most `maxBytes` (see the header). */
export async function readContainerFile(
  client: DockerClient,
  container: Docker.Container,
  engine: string,
  containerPath: string,
  options: { readonly maxBytes: number },
): Promise<Buffer> {
  const where = absolutePath(engine, containerPath);
  if (client.profile?.kind === 'podman') await refuseUnlessRegular(client, container, where);
  let archive: Readable;
  try {
    archive = (await bounded(client, 'an archive read', () =>
      container.getArchive({ path: where }),
    )) as Readable;
  } catch (error) {
    if (statusOf(error) === 404) throw new SandboxFileError(where, 'missing');
    throw error;
  }
  return bounded(client, 'an archive read', () =>
    firstRegularFile(archive, where, options.maxBytes),
  );
}

/**
 * The first entry of an archive the engine streams out of a container: read
 * whole only when it is a regular file within `maxBytes`; its header alone
 * decides otherwise, so a huge file never crosses and a FIFO is never opened.
 */
async function firstRegularFile(
  archive: Readable,
  containerPath: string,
  maxBytes: number,
): Promise<Buffer> {
  const extract = (await import('tar-stream')).extract();
  const done = pipeline(archive, extract).catch(() => undefined);
  try {
    for await (const entry of extract) {
      const header = entry.header;
      if (header.type !== 'file' && header.type !== 'contiguous-file') {
        throw new SandboxFileError(containerPath, 'not-regular', header.type);
      }
      if (header.size > maxBytes) {
        throw new SandboxFileError(
          containerPath,
          'too-large',
          `${header.size} > ${maxBytes} bytes`,
        );
      }
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    }
    throw new SandboxFileError(containerPath, 'missing', 'an empty archive');
  } finally {
    archive.destroy();
    extract.destroy();
    await done;
  }
}
