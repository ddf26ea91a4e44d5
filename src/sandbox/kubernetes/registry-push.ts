/**
 * Images for a cluster: built on a Docker engine, pushed to the registry its
 * nodes pull from, and run by the digest the registry answered with, never by
 * a tag (a tag can be moved; the digest names the bytes that were built).
 */
import type { DockerClient } from '../../runtime/index.js';
import { SandboxError } from '../errors.js';
import type { SandboxImage } from '../types.js';

/** Where images are built and where they are pushed (`host:port`, the nodes' registry). */
export interface ClusterBuilder {
  readonly client: DockerClient;
  readonly registry: string;
}

interface PushEvent {
  readonly error?: string;
  readonly aux?: { readonly Digest?: string };
}

/** `name:tag` of a built image as the registry's repository and tag. */
function repositoryOf(tag: string): { repo: string; tag: string } {
  const at = tag.lastIndexOf(':');
  const name = at > tag.lastIndexOf('/') ? tag.slice(0, at) : tag;
  return {
    repo: name.split('/').pop()!,
    tag: at > tag.lastIndexOf('/') ? tag.slice(at + 1) : 'latest',
  };
}

/** Pushes `image` (by its id) to the registry; returns `registry/repo@sha256:…`. */
export async function pushImage(builder: ClusterBuilder, image: SandboxImage): Promise<string> {
  const { repo, tag } = repositoryOf(image.tag);
  const target = `${builder.registry}/${repo}`;
  const docker = builder.client.docker;
  await docker.getImage(image.id).tag({ repo: target, tag });
  // An anonymous push: the nodes' registry takes no credentials (the header must still be there).
  const stream = await docker.getImage(`${target}:${tag}`).push({ authconfig: {} });
  const events = await new Promise<PushEvent[]>((resolve, reject) =>
    docker.modem.followProgress(stream, (error: Error | null, out: PushEvent[]) =>
      error ? reject(error) : resolve(out),
    ),
  );
  const failed = events.find((e) => e.error);
  if (failed) throw new SandboxError(builder.registry, 'push', `${image.tag}: ${failed.error}`);
  const digest = events.find((e) => e.aux?.Digest)?.aux?.Digest;
  if (!digest)
    throw new SandboxError(builder.registry, 'push', `${image.tag}: no digest in the answer`);
  // The pushed tag was only the push's name: the built image keeps its own.
  await docker
    .getImage(`${target}:${tag}`)
    .remove()
    .catch(() => undefined);
  return `${target}@${digest}`;
}
