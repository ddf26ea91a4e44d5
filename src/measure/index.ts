/**
 * Per-run measures: what a run's stops, calls, checks and diff say the agent
 * did. Pure functions; the campaign runner calls measureRun once per run and
 * stores the result in run.json. Rules: ./README.md.
 */
export {
  measureRun,
  patchLines,
  describedAtStop,
  PLANNING_PHASE,
  RATE_MEASURES,
  NUMBER_MEASURES,
  type MeasureInput,
  type RateMeasure,
  type NumberMeasure,
} from './measures.js';
export {
  runMessageChecks,
  commandFinalMessage,
  finalMessageOf,
  capMessage,
  holds,
  MAX_FINAL_MESSAGE_CHARS,
} from './message-checks.js';
export { checkOutcome, checkOutcomes, type CheckedRun } from './check-outcomes.js';
export {
  failureOf,
  leftOut,
  noFailures,
  FAILURE_CLASSES,
  type FailureClass,
  type RunFailure,
} from './failure.js';
