/**
 * benchmark.json's shape as a whole: the measures (./benchmark.ts) with the sections made
 * beside them (the judge's, the verdicts, the power and treatment warnings). Apart from
 * benchmark.ts so that those sections' modules may use its functions without a circle.
 */
import type { AgentIdentity, CampaignImageRecord } from '../artifacts/index.js';
import type { CampaignAccount } from './account.js';
import type { CodebaseEntry, Comparison, GroupStats } from './benchmark.js';
import type { EngineGroup } from './engines.js';
import type { GradingSection } from './grading.js';
import type { ServiceEntry } from './services.js';
import type { TreatmentWarning } from './treatment.js';
import type { PowerWarning, Verdict } from './verdict.js';

export interface Provenance {
  readonly eval_set: { readonly name: string; readonly path: string; readonly sha256: string };
  readonly codebases: readonly CodebaseEntry[];
  /** Some codebase is a path on the host: the campaign cannot be replayed elsewhere. */
  readonly host_local: boolean;
  readonly image: CampaignImageRecord;
  /** The services runs had beside them: image, readiness, deaths (absent: none). */
  readonly services?: readonly ServiceEntry[];
  readonly stand_in_sha256: string;
  /** An adapter agent's package, exact version and binary sha256 (absent for a command agent). */
  readonly agent?: AgentIdentity;
  /**
   * Each condition's agent by condition name, in a campaign that plays several (a cross-agent
   * campaign; `agent` is then absent).
   */
  readonly agents?: Readonly<Record<string, AgentIdentity>>;
  /** The evalrig that ran the campaign. */
  readonly evalrig_version: string;
  /** The evalrig that wrote this report. */
  readonly report_evalrig_version: string;
  readonly campaign_created_at: string;
  readonly generated_at: string;
}

/** <out>/benchmark.json (schema: src/artifacts/schemas/benchmark.schema.json). */
export interface BenchmarkFile {
  readonly schema: 'evalrig/benchmark@1';
  readonly campaign: string;
  readonly generated_at: string;
  readonly provenance: Provenance;
  /** The condition the others are compared with. */
  readonly baseline_condition: string;
  readonly runs: {
    readonly total: number;
    /** run-NN folders with no run.json (a run still going, or cut before it wrote one). */
    readonly without_record: number;
  };
  readonly conditions: ReadonlyArray<{ readonly condition: string } & GroupStats>;
  readonly evals: ReadonlyArray<{ readonly eval: string; readonly condition: string } & GroupStats>;
  readonly comparisons: readonly Comparison[];
  /** One line per rate that differs from the baseline, clearest first (see verdict.ts). */
  readonly verdicts?: readonly Verdict[];
  /** Comparisons whose runs are too few to detect differences of 20 pts at a baseline of 50%. */
  readonly power_warnings?: readonly PowerWarning[];
  /** Conditions whose staged instructions did not reach the model in every run (said first). */
  readonly treatment_warnings?: readonly TreatmentWarning[];
  /** What each eval asked: its prompt, later messages and expectations (from conditions.json). */
  readonly prompts?: ReadonlyArray<EvalPrompt>;
  /** What the judge said (grading.json, comparison.json); absent when nothing was graded. */
  readonly grading?: GradingSection;
  /** What the campaign cost (agents, judge), its wall and model time, at list prices. */
  readonly account?: CampaignAccount;
  /** Each condition's runs by the engine they ran on; only when they ran on several. */
  readonly by_engine?: ReadonlyArray<EngineGroup>;
}

/** What an eval asked of the agent, as the report shows it. */
export interface EvalPrompt {
  readonly eval: string;
  readonly prompt: string;
  readonly messages: ReadonlyArray<{ readonly message: string; readonly phase: string }>;
  readonly expectations?: readonly string[];
}
