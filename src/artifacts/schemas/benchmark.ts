// Generated from benchmark.schema.json by scripts/generate-types.mjs: do not edit.
// Change the schema, then run `npm run build` (or node scripts/generate-types.mjs).

/**
 * A 95% interval on a difference of rates; null when a side has n 0.
 */
export type DifferenceInterval = [number, number] | null;

/**
 * Measures aggregated across the stored runs of a campaign: per (eval, condition), per condition, and between conditions. A rate or number with n 0 is unavailable (its values null).
 */
export interface BenchmarkFile {
  schema: 'evalrig/benchmark@1';
  campaign: string;
  generated_at: string;
  provenance: {
    eval_set: {
      name: string;
      path: string;
      sha256: string;
    };
    codebases: Codebase[];
    host_local: boolean;
    /**
     * The services the runs had beside them (run.json's services), per service and image: the evals, the readiness (median and slowest, ms) and the runs it died in.
     */
    services?: {
      name: string;
      image: {
        tag: string;
        id: string;
      };
      evals: string[];
      runs: number;
      ready_ms: null | {
        median: number;
        max: number;
      };
      died: number;
    }[];
    image: {
      tag: string;
      id: string;
      environment?: Environment;
      /**
       * The images of the evals that name an environment (the image above is the others').
       */
      environments?: {
        evals: string[];
        image: {
          tag: string;
          id: string;
        };
        environment: Environment;
      }[];
    };
    stand_in_sha256: string;
    evalrig_version: string;
    report_evalrig_version: string;
    campaign_created_at: string;
    generated_at: string;
    /**
     * Runs copied from earlier campaigns (evalrig run --reuse), their every input unchanged: per campaign that played them and its folder, the runs by condition, and each run's key.
     */
    reused?: {
      campaign: string;
      folder: string;
      conditions: {
        [k: string]: number;
      };
      runs: string[];
    }[];
    /**
     * The eval set folder's files each run saw (mounted read only; the scripted agent's script lives there), other than evals.json, staged files and scripts: the sha256 of each by its path there, from the runs' fingerprints.
     */
    eval_set_files?: {
      [k: string]: string[];
    };
    /**
     * Per condition: the sha256 of each model script its runs played (offline, the script is the model), from the runs' fingerprints.
     */
    model_scripts?: {
      [k: string]: string[];
    };
    /**
     * Each condition's agent by condition name, in a campaign that plays several (a cross-agent campaign; `agent` is then absent).
     */
    agents?: {
      [k: string]: Agent;
    };
    agent?: Agent;
  };
  baseline_condition: string;
  runs: {
    total: number;
    without_record: number;
  };
  conditions: {
    condition: string;
    runs: number;
    measured: number;
    status: Status;
    failures?: Failures;
    measures: Measures;
    agent: AgentMeasures;
    /**
     * Each message check's pass rate, by name.
     */
    message_checks?: {
      [k: string]: Rate;
    };
    /**
     * Each check's pass rate, by name (measure checks.<name>): a run that ended before its checks ran, while the agent had control, did not pass them. Absent in files of older versions.
     */
    checks?: {
      [k: string]: Rate;
    };
  }[];
  evals: {
    eval: string;
    condition: string;
    runs: number;
    measured: number;
    status: Status;
    failures?: Failures;
    measures: Measures;
    agent: AgentMeasures;
    /**
     * Each message check's pass rate, by name.
     */
    message_checks?: {
      [k: string]: Rate;
    };
    /**
     * Each check's pass rate, by name (measure checks.<name>): a run that ended before its checks ran, while the agent had control, did not pass them. Absent in files of older versions.
     */
    checks?: {
      [k: string]: Rate;
    };
  }[];
  comparisons: {
    baseline: string;
    condition: string;
    measures: {
      pr_draft_at_hand_over: RateDifference;
      pr_described: RateDifference;
      pr_refreshed: RateDifference;
      pr_marked_ready: RateDifference;
      checks_passed: RateDifference;
      gh_not_played: NumberDifference;
      files_changed: NumberDifference;
      lines_added: NumberDifference;
      lines_removed: NumberDifference;
      turns: NumberDifference;
      duration_s: NumberDifference;
      diff_vs_reference: NumberDifference;
      environment_broken: RateDifference;
      record_tampered: RateDifference;
      condition_reached: RateDifference;
    };
    agent: AgentDifferences;
    /**
     * Differences of each message check's pass rate, by name.
     */
    message_checks?: {
      [k: string]: RateDifference;
    };
    /**
     * Differences of each check's pass rate, by name. Absent in files of older versions.
     */
    checks?: {
      [k: string]: RateDifference;
    };
  }[];
  /**
   * Each check that failed in some measured run, per condition (conditions' order, then the checks' order): how many runs failed it of how many measured it, how many of those ended before it ran, and one failed run's exit code and last output lines. The output is what a command in the agent's container printed: untrusted text, terminal escapes and control characters taken out.
   */
  failed_checks?: {
    condition: string;
    check: string;
    failed: number;
    /**
     * The runs that measured the check (its rate's n).
     */
    runs: number;
    /**
     * Of the failed runs, those that ended (the agent in control) before the check ran: no exit code, no output.
     */
    not_run: number;
    /**
     * The first failed run, in the report's order, that ran the check; null when none did.
     */
    example: {
      /**
       * eval/condition/run-NN
       */
      run: string;
      exit_code: number | null;
      /**
       * The output's last lines: at most 5 lines and about 400 characters.
       */
      tail: string;
      /**
       * The output held more than the tail.
       */
      cut: boolean;
    } | null;
  }[];
  /**
   * One line per rate that differs between a condition and the baseline, smallest p first.
   */
  verdicts?: {
    condition: string;
    baseline: string;
    measure: string;
    condition_rate: number;
    baseline_rate: number;
    condition_n: number;
    baseline_n: number;
    difference: number;
    ci95: [number, number] | null;
    p_value: number | null;
    significant: boolean;
    detectable: number | null;
    underpowered: boolean;
    /**
     * The test behind p_value: Fisher's exact test over the runs (one eval with runs of both conditions), or, tested within evals, the exact conditional test of the evals' 2x2 tables (cmh_exact) or Cochran-Mantel-Haenszel's chi-square with continuity correction (cmh_corrected, past the exact test's reach). Files written before the within-evals test lack it: fisher_exact.
     */
    test?: 'fisher_exact' | 'cmh_exact' | 'cmh_corrected';
    stratified?: StratifiedDifference;
    text: string;
  }[];
  /**
   * Conditions whose staged instructions (a skill, CLAUDE.md, AGENTS.md) did not reach the model in every run, as the model gateway saw: those runs compared nothing. A run that cannot be decided is counted undecided, neither reached nor missed. Said first in the reports.
   */
  treatment_warnings?: {
    condition: string;
    reached: number;
    runs: number;
    /**
     * Runs whose treatment check could not be decided (run.json's treatment.reached null).
     */
    undecided?: number;
    missed: {
      kind: 'skill' | 'instructions';
      path: string;
      name: string | null;
      reached: number;
      runs: number;
      loads: boolean | null;
      undecided?: number;
      /**
       * Why its first undecided run could not be decided.
       */
      undecided_reason?: string;
    }[];
    text: string;
  }[];
  /**
   * Per condition that stages a skill or an instructions file, over its runs (failed runs left out): in how many each staged file reached the model (loaded), could not be decided, and, a skill, was used by the model. Loaded is not used. Observational: never a verdict.
   */
  treatment?: TreatmentSummary[];
  /**
   * Conditions whose agent refused tool calls (its own policy blocked them): what the agent was asked to do did not happen there. Said first in the reports.
   */
  refusal_warnings?: {
    condition: string;
    /**
     * Tool calls refused over the condition's runs.
     */
    refused: number;
    runs_with_refusals: number;
    /**
     * The condition's runs whose agent record counts refusals (failed runs left out).
     */
    runs: number;
    /**
     * The refused tools by name, most refused first (at most 10).
     */
    tools: {
      name: string;
      refused: number;
    }[];
    text: string;
  }[];
  /**
   * A matrix campaign (the eval set's `agents`): each agent with its baseline and conditions (their verdicts are in `verdicts`, by condition), the interaction of each condition with each pair of agents on each rate, and the conditions that help one agent and hurt another.
   */
  agents?: {
    /**
     * The baseline condition as declared (each agent's copy of it is its baseline).
     */
    baseline: string;
    agents: {
      agent: string;
      baseline: string;
      conditions: string[];
    }[];
    /**
     * (p_A,condition − p_A,baseline) − (p_B,condition − p_B,baseline), with a 95% interval by MOVER over the two Newcombe intervals; for every declared condition but the baseline, every rate measured on all four sides, every pair of agents in the matrix's order.
     */
    interactions: {
      /**
       * As declared (with_skill).
       */
      condition: string;
      measure: string;
      agent_a: string;
      agent_b: string;
      effect_a: {
        difference: number;
        /**
         * @minItems 2
         * @maxItems 2
         */
        ci95: [number, number];
      };
      effect_b: {
        difference: number;
        /**
         * @minItems 2
         * @maxItems 2
         */
        ci95: [number, number];
      };
      difference: number;
      /**
       * @minItems 2
       * @maxItems 2
       */
      ci95: [number, number];
      excludes_zero: boolean;
      text: string;
    }[];
    /**
     * A condition and rate whose verdict is significant (p < 0.05 and its interval excludes 0) for some agent one way and for another the other way.
     */
    opposite: {
      condition: string;
      measure: string;
      helps: string[];
      hurts: string[];
      text: string;
    }[];
  };
  /**
   * Comparisons whose runs are too few: the smallest difference Fisher's test detects with 80% power at p < 0.05, at a baseline rate of 0%, of 50%, and at the hardest baseline of the grid.
   */
  power_warnings?: {
    condition: string;
    baseline: string;
    condition_runs: number;
    baseline_runs: number;
    detectable_at_0: number | null;
    detectable_at_50: number | null;
    /**
     * The hardest baseline rate of the grid (0% to 50% by 5 points; a rate b and 1 - b detect alike): 50% is not the hardest at every number of runs.
     */
    worst_baseline: number;
    /**
     * The smallest difference detected from worst_baseline (null: none).
     */
    detectable_at_worst: number | null;
    text: string;
  }[];
  /**
   * What each eval asked of the agent.
   */
  prompts?: {
    eval: string;
    prompt: string;
    messages: {
      message: string;
      phase: string;
    }[];
    expectations?: string[];
  }[];
  /**
   * What the judge said: from each run's grading.json and comparisons/<eval>/run-NN/comparison.json. Absent when nothing was graded.
   */
  grading?: {
    /**
     * Who graded: each judge model and rubric found in the gradings, with the runs it graded.
     */
    judges: {
      model: string;
      source: 'script' | 'api';
      rubric: string;
      rubric_sha256: string;
      /**
       * A judge the model stand-in played: the sha256 of each script that graded these runs (the script is the judge; a script edited since graded some runs with its earlier bytes).
       */
      scripts_sha256?: string[];
      runs: number;
    }[];
    conditions: {
      condition: string;
      graded: number;
      errors: number;
      without_grading: number;
      /**
       * Graded runs whose answer came from the judge script's catch-all (a response without `when` while responses with one were left, none fitting): counted in the rates, but the grade says nothing of the run. Absent when none.
       */
      fell_back?: number;
      all_passed: Rate;
      expectations: Rate;
      expectations_passed: Number;
    }[];
    /**
     * Runs meeting every expectation per (eval, condition): what the verdict tests within evals.
     */
    evals?: {
      eval: string;
      condition: string;
      all_passed: Rate;
    }[];
    expectations: {
      eval: string;
      condition: string;
      expectation: string;
      stats: Rate;
    }[];
    comparisons: {
      baseline: string;
      condition: string;
      all_passed: RateDifference;
      expectations: RateDifference;
    }[];
    /**
     * One entry per pair of conditions compared blind.
     */
    blind?: {
      /**
       * @minItems 2
       * @maxItems 2
       */
      conditions: [string, string];
      judged: number;
      ties: number;
      /**
       * Judged comparisons whose answer came from the judge script's catch-all (no `when` fitted). Absent when none.
       */
      fell_back?: number;
      errors: number;
      wins: {
        condition: string;
        stats: Rate;
      }[];
    }[];
  };
  /**
   * The campaign's account: agents' tokens and cost per condition, the judge's, wall time and model time. Costs at the price table's list prices.
   */
  account?: {
    /**
     * Runs copied from earlier campaigns (evalrig run --reuse): what they cost, and when they played, are that campaign's, not counted here.
     */
    reused_runs?: number;
    price_table: string;
    prices: 'list';
    agent: {
      condition: string;
      runs: number;
      model_requests: number;
      tokens: {
        input: number;
        output: number;
        cache_read: number;
        cache_write: number;
      };
      cost_usd: number;
      unpriced_runs: number;
      /**
       * Runs the campaign's budget kept from playing (cut before their first turn): no model call, nothing to price.
       */
      not_played?: number;
    }[];
    judge: {
      calls: number;
      tokens: {
        input: number;
        output: number;
      };
      cost_usd: number;
      unpriced_calls: number;
    };
    total_cost_usd: number;
    wall_time_s: number;
    model_time_s: number;
    queued_time_s: number;
    /**
     * The agents' requests of the tools the API runs itself (web search, web fetch), from the gateways' logs, and their fees at the price table's list prices (already in the agents' cost). Absent when no call made one.
     */
    server_tools?: {
      web_search_requests: number;
      web_fetch_requests: number;
      cost_usd: number;
    };
    /**
     * What was spent again on runs played over (cut or failed in an earlier command, their calls set aside under replaced/): in total_cost_usd, said apart. Absent when no replayed run had spent anything.
     */
    replayed?: {
      runs: number;
      model_requests: number;
      cost_usd: number;
    };
    limit_reached: {
      [k: string]: number;
    };
  };
  /**
   * Each condition's runs by the engine they ran on (run.json's engine); present only when the runs ran on more than one engine.
   */
  by_engine?: {
    /**
     * The engine's address as the campaign was given it.
     */
    engine: string;
    kind: 'docker' | 'podman' | 'kubernetes';
    condition: string;
    runs: number;
    measured: number;
    status: Status;
    failures?: Failures;
    measures: Measures;
    agent: AgentMeasures;
    /**
     * Each message check's pass rate, by name.
     */
    message_checks?: {
      [k: string]: Rate;
    };
    /**
     * Each check's pass rate, by name (measure checks.<name>): a run that ended before its checks ran, while the agent had control, did not pass them. Absent in files of older versions.
     */
    checks?: {
      [k: string]: Rate;
    };
  }[];
  /**
   * The sequential test of a campaign played with evalrig run --until-decided (its sequential.json): the design in words and why it stopped. Its decision is the campaign's answer on the primary measure; the verdicts' p-values are those of a fixed design and are not adjusted for the looks.
   */
  sequential?: {
    method: 'group_sequential_obf';
    design: string;
    primary_measure: string;
    condition: string;
    baseline: string;
    max_runs: number;
    /**
     * Runs a condition the last look counted.
     */
    runs: number;
    looks: number;
    decision: 'significant' | 'futile' | 'cap' | 'go_on';
    text: string;
  };
  /**
   * What the agent did per condition, read from each run's trajectory (the host's record): rates, counts a run, each condition's differences from the baseline, and the clearest in sentences. Runs with no witnessed model call and failed runs are left out.
   */
  behaviour?: {
    conditions: {
      condition: string;
      runs: number;
      rates: {
        [k: string]: Rate;
      };
      counts: {
        [k: string]: Number;
      };
    }[];
    differences: {
      condition: string;
      baseline: string;
      measure: string;
      kind: 'rate' | 'count';
      difference: number | null;
      ci95: [number, number] | null;
      p_value: number | null;
      significant: boolean;
      text: string;
    }[];
    sentences: string[];
    /**
     * Runs whose trajectory could not be read.
     */
    unread?: number;
  };
}
export interface Codebase {
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
}
/**
 * The environment image a run's image is built over (the eval set's Dockerfile over evalrig's base), and its setup commands.
 */
export interface Environment {
  /**
   * The Dockerfile, relative to the eval set's folder.
   */
  dockerfile: string;
  /**
   * The build context folder, relative to the eval set's folder.
   */
  context: string;
  /**
   * sha256 over the context's files, the Dockerfile's place, the base image's id and the build args; its first 12 hex are the tag's.
   */
  hash: string;
  tag: string;
  id: string;
  /**
   * The base image as named (BASE_IMAGE).
   */
  base_image: string;
  base_id: string;
  /**
   * The setup commands, in order.
   */
  setup: string[];
}
/**
 * The adapter agent's package, exact version and the sha256 of its binary.
 */
export interface Agent {
  package: string;
  version: string;
  binary_sha256: string;
  /**
   * sha256 of evalrig's model relay the agent reaches the gateway through (codex).
   */
  relay_sha256?: string;
  /**
   * The model the agent asked for (codex: agent.model_name), which its tokens are priced with.
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
   * How the binary reached the containers: mounted read-only, or built into images derived from the run images.
   */
  install?: 'mount' | 'image';
  /**
   * With install `image`: each derived image (its tag and id) and the run image it derives from.
   */
  images?: {
    base: string;
    base_id: string;
    tag: string;
    id: string;
  }[];
}
export interface Status {
  completed: number;
  timed_out: number;
  failed: number;
  broken: number;
  limit_reached: number;
}
/**
 * The runs that did not end as completed, by who had control (run.json's failure): only harness failures are left out of the measures; the others count against the condition.
 */
export interface Failures {
  harness: number;
  model_api: number;
  agent: number;
  timeout: number;
}
export interface Measures {
  pr_draft_at_hand_over: Rate;
  pr_described: Rate;
  pr_refreshed: Rate;
  pr_marked_ready: Rate;
  checks_passed: Rate;
  gh_not_played: Number;
  files_changed: Number;
  lines_added: Number;
  lines_removed: Number;
  turns: Number;
  duration_s: Number;
  diff_vs_reference: Number;
  environment_broken: Rate;
  record_tampered: Rate;
  condition_reached: Rate;
}
/**
 * Successes over the runs where the measure is known, with its Wilson 95% interval.
 */
export interface Rate {
  rate: number | null;
  successes: number;
  n: number;
  ci95: [number, number] | null;
}
/**
 * Mean, sample standard deviation (null below two values), min and max over the runs.
 */
export interface Number {
  mean: number | null;
  stddev: number | null;
  min: number | null;
  max: number | null;
  n: number;
}
/**
 * An adapter agent's totals per run (run.json agent.totals) as numbers over the runs: tokens, cost in USD, tool calls, failed and refused tool calls, model requests. Runs without an agent record (a command agent) are not counted: n 0, values null.
 */
export interface AgentMeasures {
  tokens_in: Number;
  tokens_out: Number;
  cache_read: Number;
  cache_write: Number;
  cost_usd: Number;
  tool_calls: Number;
  tool_calls_failed: Number;
  tool_calls_refused?: Number1;
  model_requests: Number;
}
/**
 * Mean, sample standard deviation (null below two values), min and max over the runs.
 */
export interface Number1 {
  mean: number | null;
  stddev: number | null;
  min: number | null;
  max: number | null;
  n: number;
}
export interface RateDifference {
  kind: 'rate';
  baseline: number | null;
  other: number | null;
  difference: number | null;
  p_value: number | null;
  /**
   * Newcombe's hybrid score 95% interval on the difference; null when a side has n 0.
   */
  ci95: [number, number] | null;
}
export interface NumberDifference {
  kind: 'number';
  baseline: number | null;
  other: number | null;
  difference: number | null;
}
/**
 * Differences of the agent's means, other - baseline; null where either side has n 0.
 */
export interface AgentDifferences {
  tokens_in: NumberDifference;
  tokens_out: NumberDifference;
  cache_read: NumberDifference;
  cache_write: NumberDifference;
  cost_usd: NumberDifference;
  tool_calls: NumberDifference;
  tool_calls_failed: NumberDifference;
  tool_calls_refused?: NumberDifference;
  model_requests: NumberDifference;
}
/**
 * A verdict tested within evals (several evals have runs of both conditions): the verdict's difference, ci95 and p_value are then Mantel-Haenszel's difference, its interval (Zou's MOVER over each eval's Wilson intervals) and the stratified test's p; condition_rate and baseline_rate stay the pooled rates.
 */
export interface StratifiedDifference {
  /**
   * The evals with runs of the measure under both conditions.
   */
  evals: number;
  /**
   * Evals with runs of the measure under one condition only: they tell nothing of the difference.
   */
  left_out: string[];
  /**
   * The runs pooled over the evals, as the comparisons give them: difference of the rates, Newcombe's interval, Fisher's p.
   */
  pooled: {
    difference: number;
    ci95: DifferenceInterval;
    p_value: number | null;
  };
  /**
   * The pooled difference and the one within evals have opposite signs: Simpson's paradox.
   */
  simpson: boolean;
  /**
   * Each eval with runs of both conditions: its rates, difference, Newcombe's interval and Fisher's p.
   */
  per_eval: {
    eval: string;
    condition_successes: number;
    condition_n: number;
    baseline_successes: number;
    baseline_n: number;
    difference: number;
    ci95: DifferenceInterval;
    p_value: number | null;
    text: string;
  }[];
}
export interface TreatmentSummary {
  condition: string;
  runs: number;
  /**
   * Runs where every staged file reached the model.
   */
  loaded: number;
  /**
   * Runs whose treatment check could not be decided.
   */
  undecided: number;
  /**
   * Runs where the model used a staged skill; null when the condition stages no skill.
   */
  used: number | null;
  /**
   * Runs whose record says whether a skill was used (records of older versions do not).
   */
  use_known: number;
  staged: {
    kind: 'skill' | 'instructions';
    path: string;
    name: string | null;
    loads: boolean | null;
    runs: number;
    loaded: number;
    undecided: number;
    used: number | null;
    use_known: number;
  }[];
  /**
   * When a skill was used in some runs and not in others: the two sets of runs on each rate both have values of. Observational (the runs chose themselves): never a verdict.
   */
  by_use?: {
    skills: string[];
    used: UseGroup;
    not_used: UseGroup;
    text: string;
  };
  text: string;
}
export interface UseGroup {
  runs: number;
  measures: {
    [k: string]: Rate;
  };
  message_checks: {
    [k: string]: Rate;
  };
}
