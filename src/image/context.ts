import { createHash } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { projectRoot } from '../runtime/index.js';
import { ContextFileMissingError } from './errors.js';

/** One file of the build context: its name inside the context, mode and bytes. */
export interface ContextFile {
  readonly name: string;
  readonly mode: number;
  readonly content: Buffer;
}

/** Where the context's three files are read from. */
export interface TestImageSources {
  readonly dockerfile: string;
  readonly standIn: string;
  readonly agent: string;
}

/** Names of the files inside the context; docker/Dockerfile COPYs from these. */
export const CONTEXT_NAMES = {
  dockerfile: 'Dockerfile',
  standIn: 'gh-stand-in/gh',
  agent: 'bin/evalrig-agent',
} as const;

export { projectRoot };

/** The default sources: docker/Dockerfile and the bundles `npm run build` writes. */
export function defaultSources(root: string = projectRoot()): TestImageSources {
  return {
    dockerfile: path.join(root, 'docker', 'Dockerfile'),
    standIn: path.join(root, 'dist', 'stand-in', 'gh', 'gh'),
    agent: path.join(root, 'dist', 'stand-in', 'agent', 'agent'),
  };
}

async function readSource(file: string, hint: string): Promise<Buffer> {
  try {
    return await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new ContextFileMissingError(file, hint, error);
    }
    throw error;
  }
}

/**
 * Reads the context's files. A missing bundle fails clearly (naming the file
 * and the build that writes it) instead of producing an image without it.
 */
export async function readTestImageContext(sources: TestImageSources): Promise<ContextFile[]> {
  const build = 'run `npm run build` (it bundles stand-in/<name>/main.ts)';
  return [
    {
      name: CONTEXT_NAMES.dockerfile,
      mode: 0o644,
      content: await readSource(
        sources.dockerfile,
        'the test image is defined by docker/Dockerfile',
      ),
    },
    {
      name: CONTEXT_NAMES.standIn,
      mode: 0o755,
      content: await readSource(sources.standIn, `the gh stand-in is not bundled: ${build}`),
    },
    {
      name: CONTEXT_NAMES.agent,
      mode: 0o755,
      content: await readSource(sources.agent, `the scripted agent is not bundled: ${build}`),
    },
  ];
}

/** Hex sha256 of some bytes. */
export function sha256(content: Buffer | string): string {
  return createHash('sha256').update(content).digest('hex');
}

/**
 * The content hash the test image's tag carries: every context file (name,
 * mode, bytes), the base image's id and the build args. Any change to one of
 * them gives another tag, so an existing tag never needs a rebuild.
 *
 * @example
 * testImageContextHash(files, 'sha256:72b6…', { BASE_IMAGE: 'evalrig-base:bookworm' })
 * // '3f9a…' (64 hex); the tag is `evalrig-test:${hash.slice(0, 12)}`
 */
export function testImageContextHash(
  files: readonly ContextFile[],
  baseImageId: string,
  buildArgs: Readonly<Record<string, string>>,
): string {
  const hash = createHash('sha256').update('evalrig test image context v1\n');
  for (const file of [...files].sort((a, b) => (a.name < b.name ? -1 : 1))) {
    hash.update(`file ${file.name} ${file.mode.toString(8)} ${sha256(file.content)}\n`);
  }
  hash.update(`base ${baseImageId}\n`);
  const args = Object.keys(buildArgs)
    .sort()
    .map((k) => [k, buildArgs[k]]);
  hash.update(`args ${JSON.stringify(args)}\n`);
  return hash.digest('hex');
}

/** A packed context and the clean-up of its staging folder. */
export interface PackedContext {
  readonly stream: NodeJS.ReadableStream;
  dispose(): Promise<void>;
}

const EPOCH = new Date(0);

/**
 * Stages exactly `files` in a temporary folder and packs it with tar-fs,
 * with fixed owners and times so that the tar depends on the content only.
 * Nothing else of the project reaches the builder.
 */
export async function packTestImageContext(files: readonly ContextFile[]): Promise<PackedContext> {
  const dir = await mkdtemp(path.join(tmpdir(), 'evalrig-image-'));
  try {
    for (const file of files) {
      const target = path.join(dir, file.name);
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, file.content);
      await chmod(target, file.mode);
      await utimes(target, EPOCH, EPOCH);
    }
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  // Loaded here: reusing an existing image never needs tar-fs.
  const { pack } = await import('tar-fs');
  const stream = pack(dir, {
    map: (header) => ({ ...header, uid: 0, gid: 0, uname: 'root', gname: 'root', mtime: EPOCH }),
  });
  return {
    stream: stream as unknown as NodeJS.ReadableStream,
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}
