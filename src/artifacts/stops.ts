import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { RunRecord } from './types.js';
import { assertArtifact } from './validate.js';

/**
 * sha256 of each stop file's bytes, by its path relative to the run folder:
 * what run.json records in `stops_sha256`, so that a stop file damaged after
 * the run finished (truncated, edited) is noticed.
 *
 * @example
 * await digestStops('out/runs/e/c/run-01', ['stops/stop-01.json'])
 * // { 'stops/stop-01.json': '9f86d0…' }
 */
export async function digestStops(
  runDir: string,
  stops: readonly string[],
): Promise<Record<string, string>> {
  const digests: Record<string, string> = {};
  for (const rel of stops) {
    digests[rel] = createHash('sha256')
      .update(await readFile(path.join(runDir, rel)))
      .digest('hex');
  }
  return digests;
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Checks a finished run's files: run.json against its schema, then each stop
 * it lists inside the run folder, against its schema and the digest run.json
 * recorded. Returns the record, or the first problem in a sentence.
 */
export async function verifyRunFiles(
  runDir: string,
): Promise<{ record: RunRecord; problem?: undefined } | { record?: undefined; problem: string }> {
  const file = path.join(runDir, 'run.json');
  let record: RunRecord;
  try {
    const data = JSON.parse(await readFile(file, 'utf8')) as unknown;
    assertArtifact('run', data, file);
    record = data as RunRecord;
  } catch (error) {
    return { problem: `run.json: ${reason(error)}` };
  }
  for (const rel of record.stops) {
    const stopFile = path.resolve(runDir, rel);
    if (!stopFile.startsWith(`${path.resolve(runDir)}${path.sep}`))
      return { problem: `run.json names a stop outside its folder: ${rel}` };
    let bytes: Buffer;
    try {
      bytes = await readFile(stopFile);
    } catch (error) {
      return { problem: `${rel}: ${(error as NodeJS.ErrnoException).code ?? reason(error)}` };
    }
    const expected = record.stops_sha256?.[rel];
    if (expected !== undefined && createHash('sha256').update(bytes).digest('hex') !== expected)
      return { problem: `${rel} is not the file the run wrote (its sha256 differs)` };
    try {
      assertArtifact('stop', JSON.parse(bytes.toString('utf8')), stopFile);
    } catch (error) {
      return { problem: `${rel}: ${reason(error)}` };
    }
  }
  return { record };
}
