// Generated from grading.schema.json by scripts/generate-types.mjs: do not edit.
// Change the schema, then run `npm run build` (or node scripts/generate-types.mjs).

export type Sha256 = string;

/**
 * evalrig grading of one run (runs/<eval>/<condition>/run-NN/grading.json)
 */
export interface GradingFile {
  schema: 'evalrig/grading@1';
  campaign: string;
  eval: string;
  condition: string;
  run: number;
  /**
   * graded: the judge answered for every expectation; error: no grade (its answer did not parse, did not validate, named other expectations, or the call failed). An error is never a fail.
   */
  status: 'graded' | 'error';
  error?: string;
  judge: Judge;
  rubric: Rubric;
  /**
   * sha256 of what the judge was shown (prompt, final messages, capped diff and transcript excerpt).
   */
  inputs_sha256: string;
  /**
   * sha256 of the rubric's hash, the judge's model name, the expectations and inputs_sha256: an unchanged key is not graded again.
   */
  cache_key: string;
  expectations: {
    expectation: string;
    passed: boolean | null;
    evidence: string | null;
  }[];
  /**
   * The share of expectations passed; null on a grading error.
   */
  expectations_passed: number | null;
  all_passed: boolean | null;
  calls: Call[];
  /**
   * The judge's model script answered with a response without `when` while responses with one were left, none fitting (the stand-in's own account): its catch-all, which says nothing of this run. Absent otherwise.
   */
  fell_back?: true;
  graded_at: string;
}
export interface Judge {
  model: string;
  source: 'script' | 'api';
  script_sha256?: Sha256;
  url?: string;
}
export interface Rubric {
  version: string;
  sha256: Sha256;
}
export interface Call {
  time: string;
  status: number;
  latency_ms: number;
  input_tokens: number | null;
  output_tokens: number | null;
  problem?: string;
}
