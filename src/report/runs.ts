import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { assertArtifact, type RunRecord, type StopRecord } from '../artifacts/index.js';
import { InputError } from '../errors/index.js';

/** A stored run file could not be read or does not match its schema. */
export class StoredRunError extends InputError {}

/** Where a run's record lives, or would. */
export interface RunLocation {
  readonly eval: string;
  readonly condition: string;
  readonly dir: string;
  readonly file: string;
}

async function subdirs(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries.filter((e) => e.isDirectory()).map((e) => e.name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

const byName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const runNumber = (name: string): number => Number(/^run-(\d+)$/.exec(name)?.[1] ?? NaN);

/**
 * Every run folder of a campaign, runs/<eval>/<condition>/run-NN, in a stable
 * order (eval, condition by name; runs by number). Lazy: one directory listed
 * at a time.
 */
export async function* runLocations(outDir: string): AsyncGenerator<RunLocation> {
  const runsDir = path.join(outDir, 'runs');
  for (const evalId of (await subdirs(runsDir)).sort(byName)) {
    const evalDir = path.join(runsDir, evalId);
    for (const condition of (await subdirs(evalDir)).sort(byName)) {
      const condDir = path.join(evalDir, condition);
      const runs = (await subdirs(condDir)).filter((n) => !Number.isNaN(runNumber(n)));
      runs.sort((a, b) => runNumber(a) - runNumber(b));
      for (const name of runs) {
        const dir = path.join(condDir, name);
        yield { eval: evalId, condition, dir, file: path.join(dir, 'run.json') };
      }
    }
  }
}

/**
 * A run record as read, the folder that has none yet, or one whose run.json
 * is broken (`broken` says how): a broken run is named and left out, the
 * rest of the campaign is still reported on.
 */
export type StoredRun =
  | { readonly location: RunLocation; readonly record: RunRecord; readonly broken?: undefined }
  | { readonly location: RunLocation; readonly record: null; readonly broken?: string };

async function readRun(location: RunLocation): Promise<StoredRun> {
  let text: string;
  try {
    text = await readFile(location.file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { location, record: null };
    throw error;
  }
  try {
    return { location, record: parseStored<RunRecord>('run', location.file, text) };
  } catch (error) {
    if (error instanceof StoredRunError) return { location, record: null, broken: error.message };
    throw error;
  }
}

function parseStored<T>(kind: 'run' | 'stop', file: string, text: string): T {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new StoredRunError(`${file} is not JSON: ${(error as Error).message}`);
  }
  try {
    assertArtifact(kind, data, file);
  } catch (error) {
    throw new StoredRunError((error as Error).message);
  }
  return data as T;
}

/**
 * The stored runs, one at a time, in the order of runLocations. Reads a few
 * files ahead (`readAhead`) so the disk is kept busy, but never holds more
 * than that many records: memory stays flat in the number of runs.
 */
export async function* storedRuns(outDir: string, readAhead = 16): AsyncGenerator<StoredRun> {
  const pending: Array<Promise<StoredRun>> = [];
  for await (const location of runLocations(outDir)) {
    const next = readRun(location);
    // A rejection is awaited in order below; keep Node from calling it unhandled meanwhile.
    next.catch(() => undefined);
    pending.push(next);
    if (pending.length >= readAhead) yield await pending.shift()!;
  }
  while (pending.length > 0) yield await pending.shift()!;
}

/** A run's file's text, or null where the run has none (any other failure is thrown). */
export async function readIfPresent(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Reads the stop files a run references (paths relative to its folder); a missing one is null. */
export async function readStops(
  location: RunLocation,
  stops: readonly string[],
): Promise<Array<StopRecord | null>> {
  return Promise.all(
    stops.map(async (rel) => {
      const file = path.resolve(location.dir, rel);
      const text = await readIfPresent(file);
      return text === null ? null : parseStored<StopRecord>('stop', file, text);
    }),
  );
}

/** One file of a run the page links to, relative to the run folder ('/'-separated). */
export interface RunFile {
  readonly label: string;
  readonly path: string;
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

const TURN_FILE = /^turn-(\d+)\.(jsonl|stdout\.txt|stderr\.txt)$/;
const STOP_FILE = /^stops\/stop-\d+\.json$/;

/**
 * The files of a run worth opening from the report, that exist: run.json, its
 * stop files, each turn's transcript (turns/turn-NN.jsonl for an adapter
 * agent, turn-NN.stdout.txt and .stderr.txt for a command agent), diff.patch,
 * calls.jsonl, model-calls.jsonl, and the judge's grading.json and
 * judge-calls.jsonl. Names are evalrig's own patterns, never a path a record
 * names as-is.
 */
export async function runFiles(
  location: RunLocation,
  stops: readonly string[],
): Promise<RunFile[]> {
  const files: RunFile[] = [];
  const add = async (label: string, rel: string): Promise<void> => {
    if (await isFile(path.join(location.dir, ...rel.split('/')))) files.push({ label, path: rel });
  };
  await add('run.json', 'run.json');
  for (const rel of stops) {
    if (STOP_FILE.test(rel)) await add(rel.slice('stops/'.length), rel);
  }
  const turns = (await listFiles(path.join(location.dir, 'turns')))
    .map((name) => ({ name, m: TURN_FILE.exec(name) }))
    .filter((t) => t.m !== null)
    .sort((a, b) => Number(a.m![1]) - Number(b.m![1]) || byName(a.name, b.name));
  for (const t of turns) await add(t.name, `turns/${t.name}`);
  await add('diff.patch', 'diff.patch');
  await add('calls.jsonl', 'calls.jsonl');
  await add('model-calls.jsonl', 'model-calls.jsonl');
  await add('grading.json', 'grading.json');
  await add('judge-calls.jsonl', 'judge-calls.jsonl');
  return files;
}

async function listFiles(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { withFileTypes: true }))
      .filter((e) => e.isFile())
      .map((e) => e.name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
