import { createHash } from 'node:crypto';
import { lstat, readFile, readdir, readlink } from 'node:fs/promises';
import path from 'node:path';
import { LABELS, type DockerClient } from '../runtime/index.js';
import { buildImageFrom, defaultBaseImage, IMAGE_LABELS, imageId } from './build.js';
import { sha256 } from './context.js';
import { BaseImageMissingError, TestImageError } from './errors.js';

/** The repository part of every environment image tag. */
export const ENVIRONMENT_IMAGE_REPOSITORY = 'evalrig-env';

/** Entries of a build context hashed before giving up (a context that large is a mistake). */
export const MAX_CONTEXT_ENTRIES = 100_000;

/** An eval set's environment image: its Dockerfile built over evalrig's base image. */
export interface EnvironmentImage {
  /** `evalrig-env:<first 12 hex of the context hash>`. */
  readonly tag: string;
  /** The engine's image id. */
  readonly id: string;
  /** sha256 over the context's files, the Dockerfile's name, the base's id and the build args. */
  readonly hash: string;
  /** The base image as named, and its id. */
  readonly baseImage: string;
  readonly baseId: string;
  /** True when this call built it. */
  readonly built: boolean;
  /** How long the build took (0 when the image was already there). */
  readonly buildMs: number;
}

export interface EnsureEnvironmentImageOptions {
  /** Absolute path of the Dockerfile, inside `context`. */
  readonly dockerfile: string;
  /** Absolute path of the build context folder. */
  readonly context: string;
  /** Base image (default: as for the test image). */
  readonly baseImage?: string;
  readonly onProgress?: (line: string) => void;
  /** Build even when the tag exists (no build cache). */
  readonly force?: boolean;
  readonly env?: NodeJS.ProcessEnv;
  /** The tag's repository (default evalrig-env; a service's image: evalrig-service). */
  readonly repository?: string;
}

/**
 * sha256 of a build context: every entry's relative path and kind, a file's
 * executable bit and bytes, a link's target; then the Dockerfile's place, the
 * base image's id and the build args. Owners and times are left out: the
 * packed context carries none of them either.
 */
export async function environmentContextHash(
  context: string,
  dockerfile: string,
  baseId: string,
  buildArgs: Readonly<Record<string, string>>,
): Promise<string> {
  const hash = createHash('sha256').update('evalrig environment image context v1\n');
  const entries = await readdir(context, { recursive: true, withFileTypes: true });
  if (entries.length > MAX_CONTEXT_ENTRIES) {
    throw new TestImageError(
      `the build context ${context} holds more than ${MAX_CONTEXT_ENTRIES} entries; give a smaller "context"`,
    );
  }
  const names = entries
    .map((e) => path.relative(context, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
  for (const name of names) {
    const full = path.join(context, name);
    const info = await lstat(full);
    if (info.isSymbolicLink()) hash.update(`link ${name} ${await readlink(full)}\n`);
    else if (info.isDirectory()) hash.update(`dir ${name}\n`);
    else if (info.isFile()) {
      const exec = (info.mode & 0o111) !== 0 ? 'x' : '-';
      hash.update(`file ${name} ${exec} ${sha256(await readFile(full))}\n`);
    } else hash.update(`other ${name}\n`);
  }
  hash.update(`dockerfile ${dockerfileInContext(context, dockerfile)}\n`);
  hash.update(`base ${baseId}\n`);
  const args = Object.keys(buildArgs)
    .sort()
    .map((k) => [k, buildArgs[k]]);
  hash.update(`args ${JSON.stringify(args)}\n`);
  return hash.digest('hex');
}

function dockerfileInContext(context: string, dockerfile: string): string {
  const rel = path.relative(context, dockerfile);
  if (rel.startsWith('..') || path.isAbsolute(rel)) {
    throw new TestImageError(`the Dockerfile ${dockerfile} is not inside its context ${context}`);
  }
  return rel.split(path.sep).join('/');
}

/**
 * Makes sure the environment image of a Dockerfile exists: built over the
 * base image (passed as the build arg BASE_IMAGE) from its context folder,
 * on the engine's default network (dependencies come from registries), and
 * tagged by the hash of its content so that an unchanged one is never
 * rebuilt. evalrig's own layers go on top of it (ensureTestImage with it as
 * the base).
 *
 * @example
 * const env = await ensureEnvironmentImage(client, {
 *   dockerfile: '/evals/env/Dockerfile', context: '/evals/env',
 * });
 * const image = await ensureTestImage(client, { baseImage: env.tag });
 */
export async function ensureEnvironmentImage(
  client: DockerClient,
  options: EnsureEnvironmentImageOptions,
): Promise<EnvironmentImage> {
  const baseImage = options.baseImage?.trim() || (await defaultBaseImage(client, options.env));
  const baseId = await imageId(client, baseImage);
  if (!baseId) throw new BaseImageMissingError(baseImage);
  const buildArgs = { BASE_IMAGE: baseImage };
  const hash = await environmentContextHash(options.context, options.dockerfile, baseId, buildArgs);
  const tag = `${options.repository ?? ENVIRONMENT_IMAGE_REPOSITORY}:${hash.slice(0, 12)}`;
  const result = { tag, hash, baseImage, baseId };
  if (!options.force) {
    const existing = await imageId(client, tag);
    if (existing) return { ...result, id: existing, built: false, buildMs: 0 };
  }

  const onProgress =
    options.onProgress ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const started = Date.now();
  // Loaded here: reusing an existing image never needs tar-fs.
  const { pack } = await import('tar-fs');
  const epoch = new Date(0);
  const stream = pack(options.context, {
    map: (header) => ({ ...header, uid: 0, gid: 0, uname: 'root', gname: 'root', mtime: epoch }),
  });
  const id = await buildImageFrom(
    client,
    tag,
    stream as unknown as NodeJS.ReadableStream,
    {
      dockerfile: dockerfileInContext(options.context, options.dockerfile),
      buildargs: buildArgs,
      labels: {
        [LABELS.managed]: 'true',
        [IMAGE_LABELS.image]: options.repository === undefined ? 'environment' : options.repository,
        [IMAGE_LABELS.context]: hash,
        [IMAGE_LABELS.base]: baseImage,
      },
      rm: true,
      forcerm: true,
      // On the engine's default network: the build fetches toolchains and dependencies.
      nocache: options.force === true,
    },
    onProgress,
  );
  return { ...result, id, built: true, buildMs: Date.now() - started };
}
