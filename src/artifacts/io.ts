import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { assertArtifact, type ArtifactKind } from './validate.js';

let counter = 0;

/**
 * Writes text atomically: a temporary file beside the target, then a rename,
 * so a reader (or a crash) never sees half a file.
 */
export async function writeFileAtomic(file: string, text: string | Buffer): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}-${counter++}`;
  await writeFile(tmp, text);
  await rename(tmp, file);
}

/**
 * Validates `data` against the schema of `kind`, then writes it as pretty
 * JSON, atomically. Nothing is written when it does not match.
 *
 * @example
 * await writeArtifact('run', 'out/runs/e/c/run-01/run.json', record);
 */
export async function writeArtifact(
  kind: ArtifactKind,
  file: string,
  data: unknown,
): Promise<void> {
  assertArtifact(kind, data, file);
  await writeFileAtomic(file, `${JSON.stringify(data, null, 2)}\n`);
}
