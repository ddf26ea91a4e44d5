import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  writeArtifact,
  writeFileAtomic,
  type ComparisonFile,
  type ConditionsFile,
  type GradingFile,
  type RunRecord,
  type SequentialFile,
  type StopRecord,
} from '../artifacts/index.js';
import { campaignFiles, comparisonFiles, runFiles, stopPatchPath, stopPath } from './layout.js';

/** Writes conditions.json (validated, atomic): the first file of a campaign. */
export async function writeConditions(outDir: string, conditions: ConditionsFile): Promise<void> {
  await writeArtifact('conditions', campaignFiles(outDir).conditions, conditions);
}

/**
 * Writes the stop of `turn` into the run folder `dir` (validated, atomic). Returns its path
 * relative to the run folder, as run.json lists it.
 */
export async function writeStop(dir: string, turn: number, stop: StopRecord): Promise<string> {
  const rel = stopPath(turn);
  await writeArtifact('stop', path.join(dir, rel), stop);
  return rel;
}

/** Writes the patch of a stop beside its stop file (the viewer shows the diff at every stop). */
export async function writeStopPatch(dir: string, turn: number, patch: string): Promise<void> {
  await writeFile(path.join(dir, stopPatchPath(turn)), patch);
}

/**
 * sha256 of each stop file's bytes, by its path relative to the run folder: what run.json
 * records in `stops_sha256`, so that a stop file damaged after the run finished (truncated,
 * edited) is noticed by every reader.
 *
 * @example
 * await digestStops('out/runs/e/c/run-01', ['stops/stop-01.json'])
 * // { 'stops/stop-01.json': '9f86d0…' }
 */
export async function digestStops(
  dir: string,
  stops: readonly string[],
): Promise<Record<string, string>> {
  const digests: Record<string, string> = {};
  for (const rel of stops) {
    digests[rel] = createHash('sha256')
      .update(await readFile(path.join(dir, rel)))
      .digest('hex');
  }
  return digests;
}

/** Writes run.json into the run folder `dir` (validated, atomic): the last file of a run. */
export async function writeRun(dir: string, record: RunRecord): Promise<void> {
  await writeArtifact('run', runFiles(dir).runJson, record);
}

/** Writes the host's copy of the gh calls of a run, one JSON line each. */
export async function writeCalls(dir: string, calls: readonly unknown[]): Promise<void> {
  await writeFileAtomic(
    runFiles(dir).callsJsonl,
    calls.map((c) => `${JSON.stringify(c)}\n`).join(''),
  );
}

/** Writes the judge's grading.json into the run folder `dir` (validated, atomic). */
export async function writeGrading(dir: string, grading: GradingFile): Promise<void> {
  await writeArtifact('grading', runFiles(dir).gradingJson, grading);
}

/** Writes the campaign's sequential.json (validated, atomic): its design and every look. */
export async function writeSequential(outDir: string, file: SequentialFile): Promise<void> {
  await writeArtifact('sequential', campaignFiles(outDir).sequential, file);
}

/** Writes a blind comparison's comparison.json in its folder (validated, atomic). */
export async function writeComparison(outDir: string, comparison: ComparisonFile): Promise<void> {
  const files = comparisonFiles(outDir, comparison.conditions, comparison.eval, comparison.run);
  await writeArtifact('comparison', files.comparisonJson, comparison);
}

/** The report's files of a campaign: benchmark.json (validated) and its three pages. */
export interface ReportTexts {
  readonly benchmark: unknown;
  readonly baselineMd: string;
  readonly reportMd: string;
  readonly reportHtml: string;
}

/** Writes the report's files at the top of the campaign folder, each atomically. */
export async function writeReportFiles(outDir: string, texts: ReportTexts): Promise<void> {
  const files = campaignFiles(outDir);
  await writeArtifact('benchmark', files.benchmark, texts.benchmark);
  await writeFileAtomic(files.baseline, texts.baselineMd);
  await writeFileAtomic(files.reportMd, texts.reportMd);
  await writeFileAtomic(files.reportHtml, texts.reportHtml);
}
