/**
 * The judge: grades each run's expectations with a model after its last turn, and compares two
 * conditions blind. Every call goes through a model gateway of its own on the host (the model
 * stand-in plays a script offline), is logged in the run's judge-calls.jsonl, and its answer is
 * checked against a schema: one that does not parse or validate is a grading error, never a
 * fail. Results are cached by a content hash, so a second pass calls nothing that is unchanged.
 *
 * ```ts
 * const grader = await CampaignGrader.prepare(evalSet, { campaign, outDir, log: process.stderr });
 * void grader?.gradeRun('add-multiply', 'with_skill', 1); // as runs finish
 * const summary = await grader?.sweep(); // the rest, and the blind comparisons
 * ```
 */
export {
  CampaignGrader,
  describeGradeSummary,
  gradingErrors,
  type GradeSummary,
} from './campaign.js';
export { defuse, FRAME_TAGS, gradeRun, type GradeOutcome } from './grade.js';
export { blindOrder, compareRuns } from './compare.js';
export { askJudge, prepareJudgeModel, type JudgeModel, type JudgeReply } from './call.js';
export { parseCompareAnswer, parseGradingAnswer } from './answer.js';
export { lastParagraph, readRunEvidence, type RunEvidence, type StopMessage } from './inputs.js';
export {
  COMPARE_RUBRIC,
  COMPARE_RUBRIC_RECORD,
  GRADING_RUBRIC,
  GRADING_RUBRIC_RECORD,
} from './rubric.js';
