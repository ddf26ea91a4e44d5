/**
 * benchmark.json's shape as a whole. Its one declaration is its schema
 * (src/artifacts/schemas/benchmark.schema.json); the types are generated from it and named
 * after the report's words where they are computed (GroupStats in ./benchmark.ts, Verdict in
 * ./verdict.ts, GradingSection in ./grading.ts and the others).
 */
import type { DeepReadonly } from '../artifacts/index.js';
import type * as Generated from '../artifacts/schemas/benchmark.js';

/** <out>/benchmark.json (schema: src/artifacts/schemas/benchmark.schema.json, its types generated). */
export type BenchmarkFile = DeepReadonly<Generated.BenchmarkFile>;

/** Where the campaign's inputs came from: eval set, codebases, image, agents, evalrig. */
export type Provenance = BenchmarkFile['provenance'];

/** What an eval asked of the agent, as the report shows it. */
export type EvalPrompt = NonNullable<BenchmarkFile['prompts']>[number];
