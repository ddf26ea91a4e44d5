/**
 * The engine a provider builds its images on, lent to image/'s builders: the
 * base image made present there first (from the provider's other engines or
 * the machine's own), then each build bounded by the engine's health only (a
 * build may take minutes; an engine lost meanwhile ends the wait). What is
 * built there reaches the provider's other engines by its ensureImage.
 */
import { bounded, connectDocker, pingDocker, type DockerClient } from '../runtime/index.js';
import { exporterOf, imageIdOn, shipImage } from './ship-image.js';
import type { BaseImageState } from './types.js';

/**
 * The base image `tag` made present on the engine of `first` when another
 * engine has it: `others`, then the machine's own (DOCKER_HOST, else the
 * default socket), where scripts/base-image.sh builds it. Nothing happens when
 * no engine has it (the build then says which base is missing).
 */
export async function shipBaseImage(
  first: DockerClient,
  others: readonly DockerClient[],
  tag: string,
  log: NodeJS.WritableStream,
): Promise<BaseImageState> {
  const here = await imageIdOn(first, tag);
  if (here) return { tag, id: here };
  const machine = connectDocker();
  const donors = [...others];
  if (machine.where !== first.where) {
    const answers = await pingDocker(machine, 2000).then(
      () => true,
      () => false,
    );
    if (answers) donors.push(machine);
  }
  for (const donor of donors) {
    const id = await imageIdOn(donor, tag).catch(() => undefined);
    if (!id) continue;
    log.write(`evalrig: shipping base image ${tag} from ${donor.where} to ${first.where}\n`);
    await shipImage(first, first.where, { tag, id }, exporterOf(donor));
    return { tag, id, from: donor.where };
  }
  return { tag };
}

/**
 * `build` given the engine of `client` for as long as it takes, unless the
 * engine is lost meanwhile: then the wait ends with the engine's error.
 */
export function buildOn<T>(
  client: DockerClient,
  what: string,
  build: (engine: DockerClient) => Promise<T>,
): Promise<T> {
  return bounded(client, what, () => build(client), Infinity);
}
