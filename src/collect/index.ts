/**
 * What is read at each stop: probe outputs, the branch's pull request (from
 * the gh stand-in's state), the calls since the previous stop, HEAD and
 * whether origin holds it, and the diff counters against the baseline.
 */
export {
  BrokenWorkspaceError,
  collectStop,
  sameDescription,
  DESCRIPTION_PROBE,
  KIND_PROBE,
  type StopContext,
  type TurnEnd,
} from './stop.js';
export {
  GH_RECORD_DIR,
  MAX_CALLS_BYTES,
  MAX_STATE_BYTES,
  ghRecordDir,
  pullRequestOfBranch,
  parseCalls,
  readCalls,
  readCallsText,
  readPullRequests,
  recordTampering,
} from './gh-record.js';
export {
  PROBE_OUTPUT_BYTES,
  PROBE_TIMEOUT_S,
  parseProbeOutput,
  runProbes,
  type ProbeRun,
} from './probes.js';
