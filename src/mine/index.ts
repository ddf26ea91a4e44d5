/**
 * Tasks mined from a codebase's own history: each non-merge commit that changes source and
 * tests is a candidate, whose parent is the task's codebase and whose tests are its check.
 * Knows git and the codebase cache; nothing of campaigns (the caller plays the validation).
 */
export {
  listCandidates,
  type Candidate,
  type CandidateOptions,
  type Candidates,
  type Dropped,
} from './candidates.js';
export { DEFAULT_TEST_GLOBS, FileRoles, type FileRole } from './conventions.js';
export { globToRegExp } from './glob.js';
export { placeCodebase, sourceOf } from './codebase.js';
export { candidatesText } from './text.js';
export { mineTasks, type MineOptions } from './mine.js';
export type { MiningReport } from './report.js';
export { validationVerdict, type ValidationRun, type Verdict } from './verdict.js';
