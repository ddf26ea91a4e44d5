// Generated from compare.schema.json by scripts/generate-types.mjs: do not edit.
// Change the schema, then run `npm run build` (or node scripts/generate-types.mjs).

export type Sha256 = string;

/**
 * Two finished campaigns side by side (evalrig compare <out-a> <out-b>): every measure both have, per condition and per (eval, condition), with the difference B − A and its 95% interval (Newcombe's hybrid score interval for rates, Welch's for numbers), Fisher's exact p for rates, and the provenance of each side with what differs.
 */
export interface CompareFile {
  schema: 'evalrig/compare@1';
  generated_at: string;
  evalrig_version: string;
  a: Side;
  b: Side;
  provenance: {
    a: SideProvenance;
    b: SideProvenance;
    /**
     * One entry per recorded thing that differs and could move the measures.
     */
    differences: Difference[];
    /**
     * same: nothing recorded differs; one: one thing does; several: the differences cannot be attributed to one.
     */
    attribution: 'same' | 'one' | 'several';
    verdict: string;
  };
  /**
   * The conditions overall (eval null), then each (eval, condition), that both sides have.
   */
  groups: Group[];
  /**
   * Conditions and (eval, condition) pairs only one side has.
   */
  one_sided: {
    eval: string | null;
    condition: string;
    only: 'a' | 'b';
    runs: number;
  }[];
  notes: string[];
}
export interface Side {
  dir: string;
  campaign: string;
  baseline_condition: string;
  runs: {
    total: number;
    without_record: number;
  };
  generated_at: string;
}
export interface SideProvenance {
  eval_set: {
    name: string;
    path: string;
    sha256: Sha256;
  };
  codebases: {
    kind: 'git' | 'path' | 'snapshot';
    url?: string;
    ref?: string;
    path?: string;
    commit: string;
    branch: string;
    host_local?: true;
    origin?: string;
    dirty?: true;
    evals: string[];
  }[];
  agent: null | {
    package: string;
    version: string;
    binary_sha256: Sha256;
    /**
     * evalrig's model relay the agent reached the gateway through (codex).
     */
    relay_sha256?: string;
    /**
     * The model the agent asked for, when evalrig chose it (codex: agent.model_name).
     */
    model?: string;
    /**
     * The Node runtime a Node-bundled agent runs on (Gemini CLI, Qwen Code): evalrig's pinned npm package, its exact version and the sha256 of its binary.
     */
    runtime?: {
      package: string;
      version: string;
      sha256: string;
    };
    /**
     * How the binary reached the containers (not compared: it does not change what runs).
     */
    install?: 'mount' | 'image';
  };
  /**
   * Each condition's agent by condition name, in a campaign that plays several (`agent` is then null).
   */
  agents?: {
    [k: string]: {
      package: string;
      version: string;
      binary_sha256: Sha256;
      /**
       * evalrig's model relay the agent reached the gateway through (codex).
       */
      relay_sha256?: string;
      /**
       * The model the agent asked for, when evalrig chose it (codex: agent.model_name).
       */
      model?: string;
      /**
       * The Node runtime a Node-bundled agent runs on (Gemini CLI, Qwen Code): evalrig's pinned npm package, its exact version and the sha256 of its binary.
       */
      runtime?: {
        package: string;
        version: string;
        sha256: string;
      };
      /**
       * How the binary reached the containers (not compared: it does not change what runs).
       */
      install?: 'mount' | 'image';
    };
  };
  image: {
    tag: string;
    id: string;
    environments: {
      evals: string[];
      tag: string;
      id: string;
      environment_sha256: Sha256;
    }[];
  };
  stand_in_sha256: string;
  evalrig_version: string;
  stop_at_hand_over: boolean;
  conditions: {
    name: string;
    description?: string;
    stage: {
      from: string;
      to: string;
      sha256: string;
    }[];
    env: string[];
    agent_args: string[];
  }[];
  /**
   * The judge models and rubrics that graded the runs; empty when nothing was graded.
   */
  judges: {
    model: string;
    source: string;
    rubric: string;
    rubric_sha256: string;
    /**
     * A judge the model stand-in played: the sha256 of each script that graded the runs.
     */
    scripts_sha256?: string[];
  }[];
  /**
   * The eval set folder's other files the runs saw, each by its path there (benchmark.json's provenance.eval_set_files); absent when none was recorded.
   */
  eval_set_files?: {
    [k: string]: string[];
  };
  /**
   * Per condition: the sha256 of each model script its runs played (benchmark.json's provenance.model_scripts); absent when none was recorded.
   */
  model_scripts?: {
    [k: string]: string[];
  };
  created_at: string;
}
export interface Difference {
  aspect:
    | 'eval_set'
    | 'condition'
    | 'codebase'
    | 'agent'
    | 'image'
    | 'stand_in'
    | 'evalrig_version'
    | 'stop_at_hand_over'
    | 'judge'
    | 'model_script'
    | 'eval_set_files';
  what: string;
  a: string;
  b: string;
  /**
   * Changes that are part of this one (a condition's declaration changed within the eval set).
   */
  includes?: string[];
}
export interface Group {
  eval: string | null;
  condition: string;
  runs: PairCount;
  measured: PairCount;
  measures: (RateComparison | NumberComparison)[];
  /**
   * The smallest difference of rates the measured runs of A and B detect 80% of the time with Fisher's test at p < 0.05: from_edge when A's true rate is 0% or 100% (the easiest case), from_half when it is 50%, worst at the hardest rate of A over the grid 0% to 50% by 5 points (50% is not always the hardest: 25% is at 20 to 30 runs); null: not even the largest possible. null itself: not computed (no run on a side, or more than 100).
   */
  smallest_detectable: null | {
    n_a: number;
    n_b: number;
    from_edge: number | null;
    from_half: number | null;
    worst: {
      /**
       * A's true rate that is hardest (a rate r and 1 - r alike).
       */
      rate_a: number;
      difference: number | null;
    };
  };
  /**
   * Measures of this group only one side has.
   */
  one_sided: {
    measure: string;
    kind: 'rate' | 'number';
    only: 'a' | 'b';
  }[];
}
export interface PairCount {
  a: number;
  b: number;
}
export interface RateComparison {
  measure: string;
  kind: 'rate';
  a: SideRate;
  b: SideRate;
  difference: number | null;
  /**
   * Newcombe's hybrid score 95% interval on B − A.
   */
  ci95: null | [number, number];
  p_value: number | null;
}
export interface SideRate {
  rate: number | null;
  successes: number;
  n: number;
}
export interface NumberComparison {
  measure: string;
  kind: 'number';
  a: SideNumber;
  b: SideNumber;
  difference: number | null;
  /**
   * Welch's 95% interval on the difference of means B − A; null below two runs a side.
   */
  ci95: null | [number, number];
  df: number | null;
}
export interface SideNumber {
  mean: number | null;
  stddev: number | null;
  n: number;
}
