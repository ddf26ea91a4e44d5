import type { Readable } from 'node:stream';
import { bounded, statusOf, type DockerClient } from '../runtime/index.js';
import { SandboxError } from './errors.js';
import type { SandboxImage } from './types.js';

/** An engine images can be shipped from (docker save through the API). */
export interface ImageExporter {
  readonly name: string;
  exportImage(tag: string): Promise<Readable>;
}

/** A load or an export of a whole image may take minutes: only this bounds it. */
const SHIP_BOUND_MS = 10 * 60_000;

/** The id `client`'s engine holds under `tag`, or undefined. */
export async function imageIdOn(client: DockerClient, tag: string): Promise<string | undefined> {
  try {
    const info = await bounded(client, 'an image inspect', () =>
      client.docker.getImage(tag).inspect(),
    );
    return info.Id;
  } catch (error) {
    if (statusOf(error) === 404) return undefined;
    throw error;
  }
}

/** The engine of `client` as an exporter of its images. */
export function exporterOf(client: DockerClient, name: string = client.where): ImageExporter {
  return {
    name,
    exportImage: async (tag) =>
      (await bounded(
        client,
        'an image export',
        () => client.docker.getImage(tag).get(),
        SHIP_BOUND_MS,
      )) as unknown as Readable,
  };
}

/**
 * Makes `image` (its tag, that id) present on `client`'s engine: there
 * already, or exported from `from` and loaded (Docker and Podman alike; Podman
 * names it `localhost/<tag>`, which the tag still finds). The id after the
 * load must be the one wanted.
 */
export async function shipImage(
  client: DockerClient,
  name: string,
  image: SandboxImage,
  from: Partial<ImageExporter> | undefined,
): Promise<void> {
  if ((await imageIdOn(client, image.tag)) === image.id) return;
  if (typeof from?.exportImage !== 'function') {
    throw new SandboxError(
      name,
      'image',
      `${image.tag} (${image.id}) is not on this engine and no engine to ship it from was given`,
    );
  }
  const archive = await from.exportImage(image.tag);
  const response = (await bounded(
    client,
    'an image load',
    () => client.docker.loadImage(archive, { quiet: true }),
    SHIP_BOUND_MS,
  )) as unknown as Readable;
  let said = '';
  for await (const chunk of response) said += (chunk as Buffer).toString('utf8');
  const failed = /"error(?:Detail)?"\s*:/u.test(said);
  const id = await imageIdOn(client, image.tag);
  if (failed || id !== image.id) {
    throw new SandboxError(
      name,
      'image',
      `shipping ${image.tag} from ${from.name} left ${id ?? 'nothing'} (wanted ${image.id})${failed ? `: ${said.slice(0, 300)}` : ''}`,
    );
  }
}
