/**
 * Whether a reused run keeps its grading: only when the same judge (its model, and its script's
 * bytes or its API), the same rubric and the same expectations graded it. Else the grading is
 * left behind and the campaign's judge grades the copy again.
 */
import type { GradingFile, JudgeIdentity, RubricRecord } from '../../artifacts/index.js';
import { canonicalJson } from './fingerprint.js';

/** The judge of this campaign, as a grading records it. */
export interface JudgeNow {
  readonly judge: JudgeIdentity;
  readonly rubric: RubricRecord;
}

/**
 * Why an earlier grading is not kept for the copy (each thing that differs), or an empty list
 * when it is. A run with no grading, or a campaign with no judge, keeps nothing: [].
 *
 * @example
 * gradingChanges(grading, now, expectations); // ["the judge's script"]
 */
export function gradingChanges(
  grading: GradingFile,
  now: JudgeNow,
  expectations: readonly string[],
): string[] {
  const was = grading.judge;
  const is = now.judge;
  const out: string[] = [];
  if (was.model !== is.model) out.push("the judge's model");
  if (was.source !== is.source || was.url !== is.url) out.push("the judge's API");
  else if (was.script_sha256 !== is.script_sha256) out.push("the judge's script");
  if (grading.rubric.sha256 !== now.rubric.sha256) out.push('the grading rubric');
  const graded = grading.expectations.map((e) => e.expectation);
  if (canonicalJson(graded) !== canonicalJson(expectations)) out.push('the expectations');
  return out;
}
