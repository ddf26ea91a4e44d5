// Generated from comparison.schema.json by scripts/generate-types.mjs: do not edit.
// Change the schema, then run `npm run build` (or node scripts/generate-types.mjs).

export type Sha256 = string;

/**
 * evalrig blind comparison of two runs (comparisons/<a>.vs.<b>/<eval>/run-NN/comparison.json)
 */
export interface ComparisonFile {
  schema: 'evalrig/comparison@1';
  campaign: string;
  eval: string;
  run: number;
  /**
   * The two conditions compared, as judge.compare names them.
   *
   * @minItems 2
   * @maxItems 2
   */
  conditions: [string, string];
  /**
   * sha256 of (campaign, eval, run): its first byte's parity chose the order.
   */
  seed: string;
  /**
   * The conditions as the judge saw them: first as state A, second as state B.
   *
   * @minItems 2
   * @maxItems 2
   */
  order: [string, string];
  status: 'judged' | 'error';
  error?: string;
  /**
   * The condition whose state better meets the expectations, "tie", or null on an error.
   */
  winner: string | null;
  reason: string | null;
  judge: Judge;
  rubric: Rubric;
  inputs_sha256: string;
  cache_key: string;
  /**
   * The judge's model script answered with a response without `when` while responses with one were left, none fitting (the stand-in's own account): its catch-all, which says nothing of these runs. Absent otherwise.
   */
  fell_back?: true;
  calls: Call[];
  judged_at: string;
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
