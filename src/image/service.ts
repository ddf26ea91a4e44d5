import { createHash } from 'node:crypto';
import { LABELS, bounded, startContainer, type DockerClient } from '../runtime/index.js';
import { IMAGE_LABELS, imageId } from './build.js';
import { ensureEnvironmentImage } from './environment.js';
import { TestImageError } from './errors.js';

/** The repository of service images (built from a Dockerfile, or a setup's result). */
export const SERVICE_IMAGE_REPOSITORY = 'evalrig-service';
const SETUP_POLL_MS = 100;
/** Seconds a service is given to stop cleanly (flush its data) before its setup is kept. */
const SETUP_STOP_S = 30;

/** What a service's image is made from: a Dockerfile over the base, or a local image. */
export type ServiceImageSource =
  { readonly dockerfile: string; readonly context: string } | { readonly local: string };

export interface EnsureServiceImageOptions {
  readonly source: ServiceImageSource;
  /** How the service runs (its setup runs in it so): argv (absent: the image's), env. */
  readonly command?: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** Shell commands run in the ready service; their result is the image kept. */
  readonly setup: readonly string[];
  /** A shell command that exits 0 once the service is ready (a port check is turned into one). */
  readonly readyCommand: string;
  readonly readyTimeoutMs: number;
  readonly baseImage?: string;
  readonly limits?: { memoryBytes: number; cpus: number; pids: number };
  readonly onProgress?: (line: string) => void;
}

/** A service's image as runs start it. */
export interface ServiceImage {
  readonly tag: string;
  readonly id: string;
  /** The image before setup (the Dockerfile's or the local one). */
  readonly from: { readonly tag: string; readonly id: string };
  /** True when this call built or set it up (false: found by its content). */
  readonly made: boolean;
}

/** A shell readiness check of a port from inside the service itself (bash's /dev/tcp). */
export function portReadyCommand(port: number): string {
  return `bash -c 'exec 3<>/dev/tcp/127.0.0.1/${port}'`;
}

/**
 * Makes sure a service's image exists: its Dockerfile built over the base
 * image (tagged by content, like an environment), or the local image found;
 * then, when it has setup commands, the image they leave, tagged by the hash
 * of (image id, command, env, commands): an unchanged one is never redone.
 * The setup runs in a container of the service, network none, once it is
 * ready; the service is stopped cleanly (SIGTERM) and the container kept as
 * the image.
 *
 * @example
 * const db = await ensureServiceImage(client, {
 *   source: { dockerfile: '/evals/db/Dockerfile', context: '/evals/db' },
 *   env: {}, setup: ['psql -f /schema.sql'], readyCommand: 'pg_isready -q', readyTimeoutMs: 60_000,
 * });
 */
export async function ensureServiceImage(
  client: DockerClient,
  options: EnsureServiceImageOptions,
): Promise<ServiceImage> {
  const from = await sourceImage(client, options);
  if (options.setup.length === 0) return { ...from, from, made: from.made };
  const hash = createHash('sha256')
    .update('evalrig service setup v1\n')
    .update(JSON.stringify([from.id, options.command ?? null, options.env, options.setup]))
    .digest('hex');
  const tag = `${SERVICE_IMAGE_REPOSITORY}:setup-${hash.slice(0, 12)}`;
  const existing = await imageId(client, tag);
  if (existing) return { tag, id: existing, from, made: false };
  const id = await runSetup(client, from.tag, tag, options);
  return { tag, id, from, made: true };
}

async function sourceImage(
  client: DockerClient,
  options: EnsureServiceImageOptions,
): Promise<{ tag: string; id: string; made: boolean }> {
  if ('local' in options.source) {
    const id = await imageId(client, options.source.local);
    if (!id) {
      throw new TestImageError(
        `the service image ${options.source.local} is not on the engine (${client.where}); nothing is pulled: build or load it there first`,
      );
    }
    return { tag: options.source.local, id, made: false };
  }
  const built = await ensureEnvironmentImage(client, {
    dockerfile: options.source.dockerfile,
    context: options.source.context,
    baseImage: options.baseImage,
    repository: SERVICE_IMAGE_REPOSITORY,
    onProgress: options.onProgress,
  });
  return { tag: built.tag, id: built.id, made: built.built };
}

/** Runs the setup in a ready service and keeps the stopped container as `tag`. */
async function runSetup(
  client: DockerClient,
  image: string,
  tag: string,
  options: EnsureServiceImageOptions,
): Promise<string> {
  const run = await startContainer(client, {
    image,
    ...(options.command ? { cmd: options.command } : { imageCmd: true }),
    env: options.env,
    limits: options.limits,
  });
  try {
    const deadline = Date.now() + options.readyTimeoutMs;
    for (;;) {
      const r = await run.exec(['sh', '-c', options.readyCommand], { timeoutMs: 5000 });
      if (r.exitCode === 0) break;
      if (Date.now() >= deadline) {
        throw new TestImageError(
          `the service image ${image} was not ready within ${options.readyTimeoutMs / 1000} s for its setup (the readiness check last said: ${(r.stderr || r.stdout).trim().slice(-300)})`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, SETUP_POLL_MS));
    }
    for (const command of options.setup) {
      const r = await run.exec(['sh', '-c', command], { timeoutMs: options.readyTimeoutMs });
      options.onProgress?.(`${command}: exit ${r.exitCode}`);
      if (r.exitCode !== 0) {
        throw new TestImageError(
          `the setup of the service image ${image} failed (exit ${r.exitCode ?? 'unknown, timed out'}) at: ${command}\n${(r.stdout + r.stderr).trim().slice(-2000)}`,
        );
      }
    }
    await bounded(
      client,
      'a service stop',
      () => run.container.stop({ t: SETUP_STOP_S }),
      Infinity,
    );
    const [repo, version] = tag.split(':') as [string, string];
    const committed = (await bounded(client, 'a service commit', () =>
      run.container.commit({
        repo,
        tag: version,
        changes: [`LABEL ${IMAGE_LABELS.image}=service-setup`, `LABEL ${LABELS.managed}=true`],
      }),
    )) as { Id: string };
    return committed.Id;
  } finally {
    await run.remove();
  }
}
