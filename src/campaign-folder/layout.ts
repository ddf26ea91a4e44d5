/**
 * The campaign folder's layout: every folder and file name in it, here and nowhere else.
 *
 * ```
 * <out>/conditions.json                       what the campaign plays (written first)
 * <out>/benchmark.json, BASELINE.md, report.md, report.html
 * <out>/sequential.json                       the sequential test's design and looks (--until-decided)
 * <out>/runs/<eval>/<condition>/run-NN/       one run: run.json (written last), stops/,
 *                                             turns/, calls.jsonl, diff.patch, the flight
 *                                             record, the judge's grading.json
 * <out>/comparisons/<a>.vs.<b>/<eval>/run-NN/ one blind comparison: comparison.json
 * <out>/work/<eval>/<condition>/run-NN/       a run's environment (removed when it ends)
 * <out>/replaced/<eval>/<condition>/run-NN/N/ the model call logs of a run folder replayed
 *                                             (what it spent stays counted)
 * ```
 */
import path from 'node:path';

/** The files at the top of a campaign folder. */
export interface CampaignFiles {
  readonly dir: string;
  /** What the campaign plays: written before the first run, read by every reader. */
  readonly conditions: string;
  readonly benchmark: string;
  readonly baseline: string;
  readonly reportMd: string;
  readonly reportHtml: string;
  /** runs/<eval>/<condition>/run-NN */
  readonly runs: string;
  /** The runs' environments: work/<eval>/<condition>/run-NN */
  readonly work: string;
  /** The blind comparisons: comparisons/<a>.vs.<b>/<eval>/run-NN */
  readonly comparisons: string;
  /** The call logs of run folders replayed: replaced/<eval>/<condition>/run-NN/<n> */
  readonly replaced: string;
  /** The sequential test's design and looks (`--until-decided`): a decided one plays no more. */
  readonly sequential: string;
}

/** Where a campaign's top-level files are. */
export function campaignFiles(outDir: string): CampaignFiles {
  return {
    dir: outDir,
    conditions: path.join(outDir, 'conditions.json'),
    benchmark: path.join(outDir, 'benchmark.json'),
    baseline: path.join(outDir, 'BASELINE.md'),
    reportMd: path.join(outDir, 'report.md'),
    reportHtml: path.join(outDir, 'report.html'),
    runs: path.join(outDir, 'runs'),
    work: path.join(outDir, 'work'),
    comparisons: path.join(outDir, 'comparisons'),
    replaced: path.join(outDir, 'replaced'),
    sequential: path.join(outDir, 'sequential.json'),
  };
}

/** Path of conditions.json in a campaign folder. */
export function conditionsFile(outDir: string): string {
  return campaignFiles(outDir).conditions;
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** A run's folder name: run-01, run-02, … */
export function runName(run: number): string {
  return `run-${pad(run)}`;
}

/** A run's number from its folder name, or NaN when the name is not one. */
export function runNumberOf(name: string): number {
  return Number(/^run-(\d+)$/u.exec(name)?.[1] ?? NaN);
}

/** A run's key: its path under runs/ and work/ ('/'-separated), e.g. "fix-bug/with_skill/run-01". */
export function runKey(evalId: string, condition: string, run: number): string {
  return `${evalId}/${condition}/${runName(run)}`;
}

/** The files of one run folder. */
export interface RunFiles {
  /** runs/<eval>/<condition>/run-NN */
  readonly dir: string;
  /** The run's record, written last: a run folder without one is unfinished. */
  readonly runJson: string;
  readonly stopsDir: string;
  readonly turnsDir: string;
  /** The host's copy of the gh calls, one JSON line each. */
  readonly callsJsonl: string;
  /** The model gateway's log of the run (adapter agents): one line per model call. */
  readonly modelCallsJsonl: string;
  readonly diffPatch: string;
  /** The judge's grading of the run, and its calls. */
  readonly gradingJson: string;
  readonly judgeCallsJsonl: string;
  /** The judge's flight record: its calls' log (judgeCallsJsonl) and their bodies. */
  readonly judgeFlight: FlightFiles;
}

/** The files of the run folder `dir`. */
export function runFiles(dir: string): RunFiles {
  return {
    dir,
    runJson: path.join(dir, 'run.json'),
    stopsDir: path.join(dir, 'stops'),
    turnsDir: path.join(dir, 'turns'),
    callsJsonl: path.join(dir, 'calls.jsonl'),
    modelCallsJsonl: flightFiles(dir).calls,
    diffPatch: path.join(dir, 'diff.patch'),
    gradingJson: path.join(dir, 'grading.json'),
    judgeCallsJsonl: path.join(dir, 'judge-calls.jsonl'),
    judgeFlight: judgeFlightFiles(dir),
  };
}

/**
 * The judge's flight record in a run's or a comparison's folder: the same three files as a
 * run's model record, under judge- names (the log was there before the bodies).
 */
export function judgeFlightFiles(dir: string): FlightFiles {
  return {
    calls: path.join(dir, 'judge-calls.jsonl'),
    blocks: path.join(dir, 'judge-blocks.jsonl.gz'),
    manifest: path.join(dir, 'judge-record.json'),
  };
}

/** Where a run's files go, and its environment beside them under work/. */
export interface RunLayout extends RunFiles {
  /** The environment (work tree + local origin): work/<eval>/<condition>/run-NN */
  readonly envRoot: string;
  /** The host's own record of the environment (its seal), never mounted: <envRoot>/host */
  readonly hostDir: string;
  /** The run's sockets to the host (the gh recorder), mounted read only: <envRoot>/sock */
  readonly socketDir: string;
}

/** The layout of the run `key` (see runKey) of the campaign in `outDir`. */
export function runLayout(outDir: string, key: string): RunLayout {
  const top = campaignFiles(outDir);
  const envRoot = path.join(top.work, key);
  return {
    ...runFiles(path.join(top.runs, key)),
    envRoot,
    hostDir: path.join(envRoot, 'host'),
    socketDir: path.join(envRoot, 'sock'),
  };
}

/** A stop's file name in stops/: stop-01.json for turn 1. */
export function stopFileName(turn: number): string {
  return `stop-${pad(turn)}.json`;
}

/** A stop's path relative to its run folder, as run.json lists it: stops/stop-01.json. */
export function stopPath(turn: number): string {
  return `stops/${stopFileName(turn)}`;
}

/** The patch against the baseline at a stop, beside its stop file: stops/stop-NN.patch. */
export function stopPatchPath(turn: number): string {
  return `stops/stop-${pad(turn)}.patch`;
}

/** The stop paths evalrig writes; run.json naming any other is broken. */
export const STOP_PATH = /^stops\/stop-\d+\.json$/u;

/** A command agent's output of one turn, in turns/. */
export function turnOutputName(turn: number, stream: 'stdout' | 'stderr'): string {
  return `turn-${pad(turn)}.${stream}.txt`;
}

/** An adapter agent's whole stream of one turn, in turns/. */
export function transcriptName(turn: number): string {
  return `turn-${pad(turn)}.jsonl`;
}

/** The turn files evalrig writes in turns/: a transcript, or a command agent's output. */
export const TURN_FILE = /^turn-(\d+)\.(jsonl|stdout\.txt|stderr\.txt)$/u;

/** The files of a run's flight record (their format is src/flight's). */
export interface FlightFiles {
  /** One line per model call. */
  readonly calls: string;
  /** The bodies, split in blocks, compressed. */
  readonly blocks: string;
  readonly manifest: string;
}

/** The flight record's files in the run folder `dir`. */
export function flightFiles(dir: string): FlightFiles {
  return {
    calls: path.join(dir, 'model-calls.jsonl'),
    blocks: path.join(dir, 'model-blocks.jsonl.gz'),
    manifest: path.join(dir, 'model-record.json'),
  };
}

/** A blind comparison's verdict file, in its folder. */
export const COMPARISON_JSON = 'comparison.json';

/** The files of one blind comparison. */
export interface ComparisonFiles {
  readonly dir: string;
  readonly comparisonJson: string;
  readonly judgeCallsJsonl: string;
  readonly judgeFlight: FlightFiles;
}

/** A pair's folder under comparisons/ (a condition name holds no dot: each pair has its own). */
export function pairFolderName(conditions: readonly [string, string]): string {
  return `${conditions[0]}.vs.${conditions[1]}`;
}

/** The pair a folder under comparisons/ holds, or undefined when the name is not a pair's. */
export function pairOfFolder(name: string): [string, string] | undefined {
  const names = name.split('.vs.');
  return names.length === 2 ? (names as [string, string]) : undefined;
}

/** Where the blind comparison of two conditions' run `run` of `evalId` is kept. */
export function comparisonFiles(
  outDir: string,
  conditions: readonly [string, string],
  evalId: string,
  run: number,
): ComparisonFiles {
  const dir = path.join(
    campaignFiles(outDir).comparisons,
    pairFolderName(conditions),
    evalId,
    runName(run),
  );
  return {
    dir,
    comparisonJson: path.join(dir, COMPARISON_JSON),
    judgeCallsJsonl: path.join(dir, 'judge-calls.jsonl'),
    judgeFlight: judgeFlightFiles(dir),
  };
}
