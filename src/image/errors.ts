import { EvalrigError } from '../errors/index.js';

/** Anything that keeps the test image from being there. */
export class TestImageError extends EvalrigError {}

/** A file the build context needs (a bundle, the Dockerfile) does not exist. */
export class ContextFileMissingError extends TestImageError {
  readonly path: string;
  constructor(path: string, hint: string, cause?: unknown) {
    super(`${path} is missing: ${hint}`, { cause });
    this.path = path;
  }
}

/** The base image named by --base / EVALRIG_BASE_IMAGE is not in the engine. */
export class BaseImageMissingError extends TestImageError {
  readonly baseImage: string;
  constructor(baseImage: string, cause?: unknown) {
    super(
      `base image ${baseImage} is not present: run scripts/base-image.sh or set EVALRIG_BASE_IMAGE`,
      { cause },
    );
    this.baseImage = baseImage;
  }
}

/** The builder reported an error (an `error` line inside its 200 response). */
export class ImageBuildError extends TestImageError {
  /** The builder's own message, unchanged. */
  readonly builderMessage: string;
  readonly tag: string;
  constructor(tag: string, builderMessage: string) {
    super(`building ${tag} failed: ${builderMessage}`);
    this.builderMessage = builderMessage;
    this.tag = tag;
  }
}
