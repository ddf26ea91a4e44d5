/**
 * The campaign folder: the one owner of its layout and of every file name in it, and the one
 * way to write, read (verified) and list what a campaign leaves there. The campaign writes
 * through it; resume, grade, report, compare and judge (and a viewer) read through it, under
 * one rule for what is missing and what is broken (./result.ts). The files' formats are
 * src/artifacts' (their schemas) and src/flight's (the flight record).
 *
 * ```ts
 * for await (const { entry, read } of readRuns('out/pr-workflow')) {
 *   if (read.status === 'ok') console.log(entry.eval, read.value.record.status);
 *   else if (read.status === 'broken') console.log(entry.dir, read.problem);
 *   else console.log(entry.dir, 'unfinished');
 * }
 * ```
 */
export {
  campaignFiles,
  comparisonFiles,
  conditionsFile,
  flightFiles,
  judgeFlightFiles,
  pairFolderName,
  runFiles,
  runKey,
  runLayout,
  runName,
  stopFileName,
  stopPath,
  stopPatchPath,
  transcriptName,
  turnOutputName,
  type CampaignFiles,
  type ComparisonFiles,
  type FlightFiles,
  type RunFiles,
  type RunLayout,
} from './layout.js';
export { problemOf, valueOf, type Read } from './result.js';
export { callLogs, readCallLog, setAsideCallLogs, type CallLog } from './spent.js';
export { playedRuns, replayedRuns, type PlayedRun, type ReplayedRun } from './played.js';
export { readJsonArtifact } from './json.js';
export { readRunCalls } from './calls.js';
export { reachedThroughNoLink } from './no-link.js';
export {
  notACampaign,
  readBenchmark,
  readComparison,
  readConditions,
  readGrading,
  readRun,
  readRunFlight,
  readRunPart,
  readSequential,
  type StoredRun,
} from './read.js';
export {
  isFinished,
  listComparisons,
  listRuns,
  readRuns,
  runLinks,
  runNumbers,
  type ComparisonEntries,
  type RunEntry,
  type RunLink,
} from './list.js';
export {
  digestStops,
  writeCalls,
  writeComparison,
  writeConditions,
  writeGrading,
  writeReportFiles,
  writeRun,
  writeSequential,
  writeStop,
  writeStopPatch,
  type ReportTexts,
} from './write.js';
export { copySourceRun, MAX_COPIED_BYTES, readSourceRun, type SourceRun } from './reuse.js';
