/**
 * benchmark.json's shape as a whole: the measures (./benchmark.ts) with the sections made
 * beside them (the judge's, the verdicts, the power and treatment warnings). Apart from
 * benchmark.ts so that those sections' modules may use its functions without a circle.
 */
import type { DeepReadonly } from '../artifacts/index.js';
import type * as Generated from '../artifacts/schemas/benchmark.js';
import type { CampaignAccount } from './account.js';
import type { Comparison, GroupStats } from './benchmark.js';
import type { EngineGroup } from './engines.js';
import type { GradingSection } from './grading.js';
import type { TreatmentWarning } from './treatment.js';
import type { PowerWarning, Verdict } from './verdict.js';

/** Where the campaign's inputs came from: eval set, codebases, image, agents, evalrig. */
export type Provenance = Generic['provenance'];

/**
 * <out>/benchmark.json (schema: src/artifacts/schemas/benchmark.schema.json, its types generated).
 * The measured sections keep the types of the modules that compute them (GroupStats and the
 * others); the schema's view of them is looser in places (see /work/notes/schemas2.md).
 */
export type BenchmarkFile = Omit<Generic, Sections> & {
  readonly conditions: ReadonlyArray<{ readonly condition: string } & GroupStats>;
  readonly evals: ReadonlyArray<{ readonly eval: string; readonly condition: string } & GroupStats>;
  readonly comparisons: readonly Comparison[];
  /** One line per rate that differs from the baseline, clearest first (see verdict.ts). */
  readonly verdicts?: readonly Verdict[];
  /** Comparisons whose runs are too few to detect differences of 20 pts at a baseline of 50%. */
  readonly power_warnings?: readonly PowerWarning[];
  /** Conditions whose staged instructions did not reach the model in every run (said first). */
  readonly treatment_warnings?: readonly TreatmentWarning[];
  /** What the judge said (grading.json, comparison.json); absent when nothing was graded. */
  readonly grading?: GradingSection;
  /** What the campaign cost (agents, judge), its wall and model time, at list prices. */
  readonly account?: CampaignAccount;
  /** Each condition's runs by the engine they ran on; only when they ran on several. */
  readonly by_engine?: ReadonlyArray<EngineGroup>;
};

type Generic = DeepReadonly<Generated.BenchmarkFile>;
type Sections =
  | 'conditions'
  | 'evals'
  | 'comparisons'
  | 'verdicts'
  | 'power_warnings'
  | 'treatment_warnings'
  | 'grading'
  | 'account'
  | 'by_engine';

/** What an eval asked of the agent, as the report shows it. */
export type EvalPrompt = NonNullable<Generic['prompts']>[number];
