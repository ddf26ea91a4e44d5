/**
 * A Docker provider's image builder: its first engine builds, its
 * ensureImage ships what was built to each engine that runs it.
 */
import type { ImageBuilder } from './image-builder.js';
import type { SandboxProvider } from './types.js';

type DockerBuilding = Pick<SandboxProvider, 'name' | 'ensureImage' | 'ensureBaseImage'> &
  Required<Pick<SandboxProvider, 'buildImage'>>;

/** The builder of a provider that builds on an engine of its own. */
export function dockerImageBuilder(provider: DockerBuilding): ImageBuilder {
  const ensureBase = provider.ensureBaseImage?.bind(provider);
  return {
    name: provider.name,
    build: (what, build) => provider.buildImage(what, build),
    ...(ensureBase ? { ensureBaseImage: ensureBase } : {}),
    place: (image) => provider.ensureImage(image),
  };
}
