// Generated from review.schema.json by scripts/generate-types.mjs: do not edit.
// Change the schema, then run `npm run build` (or node scripts/generate-types.mjs).

/**
 * evalrig review: a person's mark on one run, kept apart from the judge's grading
 */
export interface ReviewFile {
  schema: 'evalrig/review@1';
  campaign: string;
  eval: string;
  condition: string;
  run: number;
  /**
   * The person agrees or disagrees with the judge's grading; null: no mark, a note only.
   */
  verdict: 'agree' | 'disagree' | null;
  note: string;
  updated_at: string;
}
