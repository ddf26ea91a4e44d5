import type Docker from 'dockerode';
import type { Readable } from 'node:stream';
import { LABELS, type DockerClient } from '../runtime/index.js';
import {
  defaultSources,
  packTestImageContext,
  readTestImageContext,
  sha256,
  testImageContextHash,
  CONTEXT_NAMES,
  type TestImageSources,
} from './context.js';
import { BaseImageMissingError, ImageBuildError, TestImageError } from './errors.js';

/** The repository part of every test image tag. */
export const TEST_IMAGE_REPOSITORY = 'evalrig-test';
/** The local base our CI and tests use (scripts/base-image.sh). */
export const LOCAL_BASE_IMAGE = 'evalrig-base:bookworm';
/** The Dockerfile's own default, for users with a registry. */
export const REGISTRY_BASE_IMAGE = 'node:20-bookworm';

/** Labels on the test image itself. */
export const IMAGE_LABELS = {
  image: 'evalrig.image',
  context: 'evalrig.context',
  standIn: 'evalrig.stand-in.sha256',
  agent: 'evalrig.agent.sha256',
  base: 'evalrig.base-image',
} as const;

/** The test image a run's containers start from. */
export interface TestImage {
  /** `evalrig-test:<first 12 hex of the context hash>`. */
  readonly tag: string;
  /** The engine's image id (`sha256:…`). */
  readonly id: string;
  /** True when this call built it; false when the tag already existed. */
  readonly built: boolean;
  /** sha256 of the gh stand-in bundle inside (/opt/gh-stand-in/gh). */
  readonly standInSha256: string;
  /** sha256 of the scripted agent bundle inside (/opt/evalrig/bin/evalrig-agent). */
  readonly agentSha256: string;
  /** The base image as named (tag or id). */
  readonly baseImage: string;
}

export interface EnsureTestImageOptions {
  /** Base image; default: EVALRIG_BASE_IMAGE, else evalrig-base:bookworm when present, else node:20-bookworm. */
  readonly baseImage?: string;
  /** Receives each line the builder prints; default: written to stderr. */
  readonly onProgress?: (line: string) => void;
  /** Build even when the tag exists (no build cache). */
  readonly force?: boolean;
  /** Where the Dockerfile and bundles are read from; default: the project's. */
  readonly sources?: TestImageSources;
  /** Environment consulted for EVALRIG_BASE_IMAGE; default process.env. */
  readonly env?: NodeJS.ProcessEnv;
}

export function statusOf(error: unknown): number | undefined {
  return (error as { statusCode?: number }).statusCode;
}

export function engineMessage(error: unknown): string {
  const json = (error as { json?: { message?: string } | string }).json;
  if (typeof json === 'object' && json?.message) return json.message.trim();
  if (typeof json === 'string' && json.trim()) return json.trim();
  // For a streamed request the engine's message is only inside dockerode's wording.
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/^\(HTTP code \d+\) [^-]*- /, '').trim();
}

export async function imageId(client: DockerClient, name: string): Promise<string | undefined> {
  try {
    return (await client.docker.getImage(name).inspect()).Id;
  } catch (error) {
    if (statusOf(error) === 404) return undefined;
    throw error;
  }
}

/**
 * The base image evalrig uses when none is given: EVALRIG_BASE_IMAGE, else
 * the local evalrig-base:bookworm when the engine has it, else node:20-bookworm.
 */
export async function defaultBaseImage(
  client: DockerClient,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  const fromEnv = env.EVALRIG_BASE_IMAGE?.trim();
  if (fromEnv) return fromEnv;
  return (await imageId(client, LOCAL_BASE_IMAGE)) ? LOCAL_BASE_IMAGE : REGISTRY_BASE_IMAGE;
}

/** One line of the builder's JSON stream (classic builder). */
interface BuildMessage {
  stream?: string;
  status?: string;
  error?: string;
  errorDetail?: { message?: string };
  aux?: { ID?: string };
}

/**
 * Reads the builder's response to its end. The engine answers 200 even when
 * the build fails; the failure is an `error`/`errorDetail` line inside.
 */
export function followBuild(
  stream: Readable,
  onLine: (line: string) => void,
): Promise<{ error?: string; imageId?: string }> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    let error: string | undefined;
    let builtId: string | undefined;
    const handle = (raw: string): void => {
      const text = raw.trim();
      if (!text) return;
      let message: BuildMessage;
      try {
        message = JSON.parse(text) as BuildMessage;
      } catch {
        onLine(text);
        return;
      }
      if (message.error !== undefined || message.errorDetail !== undefined) {
        error ??= (message.errorDetail?.message ?? message.error ?? 'unknown error').trim();
        return;
      }
      if (message.aux?.ID) builtId = message.aux.ID;
      const line = message.stream ?? message.status;
      if (line === undefined) return;
      for (const part of line.split('\n')) if (part.trim()) onLine(part.replace(/\r$/, ''));
    };
    stream.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      let at: number;
      while ((at = buffer.indexOf('\n')) >= 0) {
        handle(buffer.slice(0, at));
        buffer = buffer.slice(at + 1);
      }
    });
    stream.once('error', reject);
    stream.once('end', () => {
      handle(buffer);
      resolve({ error, imageId: builtId });
    });
  });
}

/**
 * Makes sure the test image for the current Dockerfile and bundles exists and
 * returns it. When an image with the content-hash tag exists nothing is built
 * (two inspects, well under a second); otherwise it is built through the
 * project's Docker client from a context holding only the Dockerfile and the
 * two bundles.
 *
 * @example
 * const image = await ensureTestImage(connectDocker(), { onProgress: () => {} });
 * image.tag // 'evalrig-test:1a2b3c4d5e6f'
 * image.built // false when it was already there
 */
export async function ensureTestImage(
  client: DockerClient,
  options: EnsureTestImageOptions = {},
): Promise<TestImage> {
  const files = await readTestImageContext(options.sources ?? defaultSources());
  const baseImage = options.baseImage?.trim() || (await defaultBaseImage(client, options.env));
  const baseId = await imageId(client, baseImage);
  if (!baseId) throw new BaseImageMissingError(baseImage);

  const buildArgs = { BASE_IMAGE: baseImage };
  const hash = testImageContextHash(files, baseId, buildArgs);
  const tag = testImageTagOf(hash);
  const content = (name: string): Buffer => files.find((f) => f.name === name)!.content;
  const standInSha256 = sha256(content(CONTEXT_NAMES.standIn));
  const agentSha256 = sha256(content(CONTEXT_NAMES.agent));
  const result = { tag, standInSha256, agentSha256, baseImage };

  if (!options.force) {
    const existing = await imageId(client, tag);
    if (existing) return { ...result, id: existing, built: false };
  }

  const onProgress =
    options.onProgress ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const context = await packTestImageContext(files);
  try {
    const id = await buildImageFrom(
      client,
      tag,
      context.stream,
      {
        buildargs: buildArgs,
        labels: {
          [LABELS.managed]: 'true',
          [IMAGE_LABELS.image]: 'test',
          [IMAGE_LABELS.context]: hash,
          [IMAGE_LABELS.standIn]: standInSha256,
          [IMAGE_LABELS.agent]: agentSha256,
          [IMAGE_LABELS.base]: baseImage,
        },
        rm: true,
        forcerm: true,
        // The steps need no network, and so no bridge: a second engine on the
        // host started with --bridge none removes docker0, and builds go on.
        networkmode: 'none',
        nocache: options.force === true,
      },
      onProgress,
    );
    return { ...result, id, built: true };
  } finally {
    await context.dispose();
  }
}

function testImageTagOf(hash: string): string {
  return `${TEST_IMAGE_REPOSITORY}:${hash.slice(0, 12)}`;
}

/**
 * The tag {@link ensureTestImage} gives the test image over `baseImage` (whose
 * id is `baseId`), without building anything: what `evalrig doctor` looks for.
 */
export async function testImageTag(
  baseImage: string,
  baseId: string,
  sources: TestImageSources = defaultSources(),
): Promise<string> {
  const files = await readTestImageContext(sources);
  return testImageTagOf(testImageContextHash(files, baseId, { BASE_IMAGE: baseImage }));
}

/**
 * Builds `tag` from a context stream and returns its id: a request the engine
 * refuses outright (4xx/5xx), an error inside the build's stream, or an image
 * missing after a reported success each fail with a clear message.
 */
export async function buildImageFrom(
  client: DockerClient,
  tag: string,
  context: NodeJS.ReadableStream,
  options: Omit<Docker.ImageBuildOptions, 't'>,
  onProgress: (line: string) => void,
): Promise<string> {
  const response = (await client.docker
    .buildImage(context, { ...options, t: tag })
    .catch((error: unknown) => {
      if (statusOf(error) === undefined) throw error;
      throw new ImageBuildError(tag, engineMessage(error));
    })) as Readable;
  const outcome = await followBuild(response, onProgress);
  if (outcome.error !== undefined) throw new ImageBuildError(tag, outcome.error);
  const id = await imageId(client, tag);
  if (!id) throw new TestImageError(`building ${tag} reported success but the image is not there`);
  return id;
}
