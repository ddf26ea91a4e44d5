/**
 * The host's copy of the gh stand-in's record: the stand-in reports each call, as it happens,
 * over a per-run Unix socket ({@link startGhRecorder}); measures read the host's copy, and
 * {@link compareRecords} tells whether the in-repository calls.jsonl was rewritten.
 *
 * ```ts
 * const recorder = await startGhRecorder({ socketPath: '/runs/r1/sock/gh.sock',
 *   maxMessageBytes: 1 << 20, maxCalls: 10_000 });
 * // container: -v /runs/r1/sock:/run/evalrig:ro, env EVALRIG_GH_RECORDER=/run/evalrig/gh.sock
 * const tampered = !compareRecords(recorder.calls(), callsJsonlText).same
 *   || recorder.problemCount() > 0;
 * await recorder.close();
 * ```
 */
export { startGhRecorder, GH_RECORDER_ENV, GH_REPORT_VERSION } from './server.js';
export { compareRecords, type RecordComparison } from './compare.js';
export type {
  GhRecorder,
  GhRecorderOptions,
  GhRecorderProblem,
  GhRecorderProblemKind,
  GhState,
} from './types.js';
