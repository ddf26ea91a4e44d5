import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { readRun, type StoredRun } from './read.js';
import {
  campaignFiles,
  COMPARISON_JSON,
  pairOfFolder,
  runFiles,
  runNumberOf,
  STOP_PATH,
  TURN_FILE,
} from './layout.js';
import type { Read } from './result.js';

/** A run folder of a campaign, found by listing (nothing in it read yet). */
export interface RunEntry {
  readonly eval: string;
  readonly condition: string;
  readonly run: number;
  /** runs/<eval>/<condition>/run-NN */
  readonly dir: string;
}

async function entries(dir: string, kind: 'dirs' | 'files'): Promise<string[]> {
  try {
    return (await readdir(dir, { withFileTypes: true }))
      .filter((e) => (kind === 'dirs' ? e.isDirectory() : e.isFile()))
      .map((e) => e.name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

const byName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The run folders in `dir` (run-NN), by number. */
async function runFolders(dir: string): Promise<Array<{ name: string; run: number }>> {
  return (await entries(dir, 'dirs'))
    .map((name) => ({ name, run: runNumberOf(name) }))
    .filter((r) => !Number.isNaN(r.run))
    .sort((a, b) => a.run - b.run);
}

/** The run numbers of one (eval, condition) found in the campaign folder, in order. */
export async function runNumbers(
  outDir: string,
  evalId: string,
  condition: string,
): Promise<number[]> {
  const dir = path.join(campaignFiles(outDir).runs, evalId, condition);
  return (await runFolders(dir)).map((r) => r.run);
}

/**
 * Every run folder of a campaign, runs/<eval>/<condition>/run-NN, in a stable order (eval,
 * condition by name; runs by number). Cheap and lazy: folders are listed one at a time and no
 * file is read (a viewer lists a campaign still running this way).
 */
export async function* listRuns(outDir: string): AsyncGenerator<RunEntry> {
  const runsDir = campaignFiles(outDir).runs;
  for (const evalId of (await entries(runsDir, 'dirs')).sort(byName)) {
    for (const condition of (await entries(path.join(runsDir, evalId), 'dirs')).sort(byName)) {
      const condDir = path.join(runsDir, evalId, condition);
      for (const { name, run } of await runFolders(condDir)) {
        yield { eval: evalId, condition, run, dir: path.join(condDir, name) };
      }
    }
  }
}

/**
 * Whether a run folder holds its run.json: written last, so a run without one is still going,
 * or was cut (resume replays it).
 */
export async function isFinished(dir: string): Promise<boolean> {
  try {
    return (await stat(runFiles(dir).runJson)).isFile();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/**
 * The runs of a campaign read and verified (readRun), one at a time, in the order of listRuns.
 * Reads a few runs ahead (`readAhead`) so the disk is kept busy, but never holds more than that
 * many: memory stays flat in the number of runs.
 */
export async function* readRuns(
  outDir: string,
  readAhead = 16,
): AsyncGenerator<{ readonly entry: RunEntry; readonly read: Read<StoredRun> }> {
  const pending: Array<Promise<{ entry: RunEntry; read: Read<StoredRun> }>> = [];
  for await (const entry of listRuns(outDir)) {
    const next = readRun(entry.dir).then((read) => ({ entry, read }));
    // A rejection is awaited in order below; keep Node from calling it unhandled meanwhile.
    next.catch(() => undefined);
    pending.push(next);
    if (pending.length >= readAhead) yield await pending.shift()!;
  }
  while (pending.length > 0) yield await pending.shift()!;
}

/** One file of a run worth opening, relative to the run folder ('/'-separated). */
export interface RunLink {
  readonly label: string;
  readonly path: string;
}

/**
 * The files of a run worth opening (a report links them, a viewer shows them), that exist:
 * run.json, its stop files, each turn's transcript (turns/turn-NN.jsonl for an adapter agent,
 * turn-NN.stdout.txt and .stderr.txt for a command agent), diff.patch, calls.jsonl,
 * model-calls.jsonl, and the judge's grading.json and judge-calls.jsonl. Names are evalrig's
 * own patterns, never a path a record names as-is.
 */
export async function runLinks(dir: string, stops: readonly string[]): Promise<RunLink[]> {
  const files = runFiles(dir);
  const links: RunLink[] = [];
  const add = async (file: string): Promise<void> => {
    const rel = path.relative(dir, file).split(path.sep).join('/');
    if (await isFile(file)) links.push({ label: path.basename(file), path: rel });
  };
  await add(files.runJson);
  for (const rel of stops) if (STOP_PATH.test(rel)) await add(path.join(dir, rel));
  const turns = (await entries(files.turnsDir, 'files'))
    .map((name) => ({ name, m: TURN_FILE.exec(name) }))
    .filter((t) => t.m !== null)
    .sort((a, b) => Number(a.m![1]) - Number(b.m![1]) || byName(a.name, b.name));
  for (const t of turns) await add(path.join(files.turnsDir, t.name));
  for (const file of [
    files.diffPatch,
    files.callsJsonl,
    files.modelCallsJsonl,
    files.gradingJson,
    files.judgeCallsJsonl,
  ])
    await add(file);
  return links;
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/** The blind comparisons of one pair of conditions found under comparisons/. */
export interface ComparisonEntries {
  readonly conditions: readonly [string, string];
  /** comparison.json of each comparison folder, <eval>/run-NN, in order. */
  readonly files: readonly string[];
}

/** Every pair compared blind in the campaign folder, with its comparisons' files. */
export async function listComparisons(outDir: string): Promise<ComparisonEntries[]> {
  const root = campaignFiles(outDir).comparisons;
  const found: ComparisonEntries[] = [];
  for (const pairDir of (await entries(root, 'dirs')).sort()) {
    const conditions = pairOfFolder(pairDir);
    if (!conditions) continue;
    const files: string[] = [];
    for (const evalId of (await entries(path.join(root, pairDir), 'dirs')).sort()) {
      for (const run of (await entries(path.join(root, pairDir, evalId), 'dirs')).sort()) {
        if (!Number.isNaN(runNumberOf(run)))
          files.push(path.join(root, pairDir, evalId, run, COMPARISON_JSON));
      }
    }
    found.push({ conditions, files });
  }
  return found;
}
