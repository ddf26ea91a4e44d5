import { createHash } from 'node:crypto';
import { chmod, copyFile, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LABELS, type DockerClient } from '../runtime/index.js';
import { buildImageFrom, IMAGE_LABELS, imageId } from './build.js';
import { BaseImageMissingError } from './errors.js';

/** The repository part of every derived agent image's tag. */
export const AGENT_IMAGE_REPOSITORY = 'evalrig-agent';

/** A file built into the image: read from `host`, placed at `container`, executable. */
export interface AgentImageFile {
  readonly host: string;
  readonly container: string;
  /** Its sha256, part of the tag: another binary, another image. */
  readonly sha256: string;
}

/** A run image with an agent built in, for engines that cannot mount host paths. */
export interface AgentImage {
  /** `evalrig-agent:<first 12 hex of agentImageHash>`. */
  readonly tag: string;
  readonly id: string;
  /** True when this call built it; false when the tag already existed. */
  readonly built: boolean;
  /** The run image it derives from: as named, and its id. */
  readonly base: { readonly tag: string; readonly id: string };
}

export interface EnsureAgentImageOptions {
  /** The run image (the test image, or an environment's) the agent is added to. */
  readonly baseImage: string;
  readonly package: string;
  readonly version: string;
  readonly files: readonly AgentImageFile[];
  readonly onProgress?: (line: string) => void;
}

/**
 * The hash a derived image's tag carries: the base image's id, the package and its exact
 * version, and each file's place and sha256. Any change gives another tag, so an existing
 * tag is reused as it is.
 */
export function agentImageHash(
  baseImageId: string,
  pkg: string,
  version: string,
  files: readonly Pick<AgentImageFile, 'container' | 'sha256'>[],
): string {
  const hash = createHash('sha256').update('evalrig agent image v1\n');
  hash.update(`base ${baseImageId}\npackage ${pkg}@${version}\n`);
  for (const f of [...files].sort((a, b) => (a.container < b.container ? -1 : 1))) {
    hash.update(`file ${f.container} ${f.sha256}\n`);
  }
  return hash.digest('hex');
}

const EPOCH = new Date(0);

/**
 * Makes sure the run image `baseImage` with the agent's files copied in exists: `FROM` the
 * base's id, one `COPY` per file (root-owned, mode 0755; the base's user and everything else
 * unchanged), through a tar-fs context holding only the Dockerfile and those files, built
 * with no network. Reused while the tag exists.
 *
 * ```ts
 * const image = await ensureAgentImage(client, { baseImage: 'evalrig-test:1a2b…',
 *   package: '@openai/codex', version: '0.171.0',
 *   files: [{ host: install.binary, container: '/opt/evalrig/agent/codex', sha256: install.sha256 }] });
 * image.tag // 'evalrig-agent:3f9a…'; runs then start from it and bind no binary
 * ```
 */
export async function ensureAgentImage(
  client: DockerClient,
  options: EnsureAgentImageOptions,
): Promise<AgentImage> {
  const baseId = await imageId(client, options.baseImage);
  if (!baseId) throw new BaseImageMissingError(options.baseImage);
  const hash = agentImageHash(baseId, options.package, options.version, options.files);
  const tag = `${AGENT_IMAGE_REPOSITORY}:${hash.slice(0, 12)}`;
  const base = { tag: options.baseImage, id: baseId };
  const existing = await imageId(client, tag);
  if (existing) return { tag, id: existing, built: false, base };

  const dir = await mkdtemp(path.join(tmpdir(), 'evalrig-agent-image-'));
  try {
    const lines = [`FROM ${baseId}`];
    for (const [i, f] of options.files.entries()) {
      const name = `f${i}`;
      await copyFile(f.host, path.join(dir, name));
      await chmod(path.join(dir, name), 0o755);
      await utimes(path.join(dir, name), EPOCH, EPOCH);
      lines.push(`COPY ${JSON.stringify([name, f.container])}`);
    }
    await writeFile(path.join(dir, 'Dockerfile'), `${lines.join('\n')}\n`);
    const { pack } = await import('tar-fs');
    const context = pack(dir, {
      map: (h) => ({ ...h, uid: 0, gid: 0, uname: 'root', gname: 'root', mtime: EPOCH }),
    }) as unknown as NodeJS.ReadableStream;
    const id = await buildImageFrom(
      client,
      tag,
      context,
      {
        labels: {
          [LABELS.managed]: 'true',
          [IMAGE_LABELS.image]: 'agent',
          [IMAGE_LABELS.context]: hash,
          [IMAGE_LABELS.base]: options.baseImage,
        },
        rm: true,
        forcerm: true,
        networkmode: 'none',
      },
      options.onProgress ?? (() => undefined),
    );
    return { tag, id, built: true, base };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
