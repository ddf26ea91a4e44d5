/**
 * compare.json: two campaigns side by side (schema:
 * src/artifacts/schemas/compare.schema.json). Field names are snake_case:
 * it is a file format. Every difference is B − A.
 */
import type { AgentIdentity, CodebaseProvenance, ConditionsFile } from '../artifacts/index.js';

/** Which campaign: A is the first folder given, B the second. */
export type Side = 'a' | 'b';

/** One campaign as compare read it. */
export interface SideSummary {
  /** The folder as given on the command line, resolved. */
  readonly dir: string;
  readonly campaign: string;
  readonly baseline_condition: string;
  readonly runs: { readonly total: number; readonly without_record: number };
  /** When its benchmark.json was computed. */
  readonly generated_at: string;
}

/** The agent a campaign played, as compare records it. */
export type SideAgent = Omit<AgentIdentity, 'images'>;

/** A codebase a campaign used, with the evals that used it. */
export type SideCodebase = CodebaseProvenance & { readonly evals: readonly string[] };

/** What a campaign's numbers were measured against. */
export interface SideProvenance {
  readonly eval_set: { readonly name: string; readonly path: string; readonly sha256: string };
  readonly codebases: readonly SideCodebase[];
  /**
   * An adapter agent (its derived images left out: the image is compared on its own); null for
   * a command agent (its command is in the eval set).
   */
  readonly agent: SideAgent | null;
  /** Each condition's agent, in a campaign that plays several (`agent` is then null). */
  readonly agents?: Readonly<Record<string, SideAgent>>;
  readonly image: {
    readonly tag: string;
    readonly id: string;
    /** The images of evals that name an environment. */
    readonly environments: ReadonlyArray<{
      readonly evals: readonly string[];
      readonly tag: string;
      readonly id: string;
      readonly environment_sha256: string;
    }>;
  };
  readonly stand_in_sha256: string;
  readonly evalrig_version: string;
  readonly stop_at_hand_over: boolean;
  readonly conditions: ConditionsFile['conditions'];
  /** The judge models and rubrics that graded the runs (none when nothing was graded). */
  readonly judges: ReadonlyArray<{
    readonly model: string;
    readonly source: string;
    readonly rubric: string;
    readonly rubric_sha256: string;
  }>;
  readonly created_at: string;
}

/**
 * One thing that differs between the two campaigns' provenance. `aspect` is
 * stable (for tools); `what` names it for a reader; `a` and `b` say how.
 */
export interface ProvenanceDifference {
  readonly aspect:
    | 'eval_set'
    | 'condition'
    | 'codebase'
    | 'agent'
    | 'image'
    | 'stand_in'
    | 'evalrig_version'
    | 'stop_at_hand_over'
    | 'judge';
  readonly what: string;
  readonly a: string;
  readonly b: string;
  /** Changes that came with it and are part of it (a condition's env changed in the eval set). */
  readonly includes?: readonly string[];
}

/** Same: nothing recorded differs; one: what differs is one thing; several: it cannot be attributed. */
export type Attribution = 'same' | 'one' | 'several';

/** A rate of one side: successes over the runs where the measure is known. */
export interface SideRate {
  readonly rate: number | null;
  readonly successes: number;
  readonly n: number;
}

/** A number of one side: its mean and sample standard deviation over n runs. */
export interface SideNumber {
  readonly mean: number | null;
  readonly stddev: number | null;
  readonly n: number;
}

export interface RateComparison {
  readonly measure: string;
  readonly kind: 'rate';
  readonly a: SideRate;
  readonly b: SideRate;
  /** b.rate − a.rate; null when a side has n 0. */
  readonly difference: number | null;
  /** Newcombe's hybrid score 95% interval on the difference. */
  readonly ci95: [number, number] | null;
  /** Fisher's exact test, two-sided. */
  readonly p_value: number | null;
}

export interface NumberComparison {
  readonly measure: string;
  readonly kind: 'number';
  readonly a: SideNumber;
  readonly b: SideNumber;
  /** b.mean − a.mean; null when a side has n 0. */
  readonly difference: number | null;
  /** Welch's 95% interval; null below two runs on a side. */
  readonly ci95: [number, number] | null;
  /** Welch–Satterthwaite degrees of freedom. */
  readonly df: number | null;
}

export type MeasureComparison = RateComparison | NumberComparison;

/** A measure found on one side only (a check one eval set declares, a grading one side lacks). */
export interface OneSidedMeasure {
  readonly measure: string;
  readonly kind: 'rate' | 'number';
  readonly only: Side;
}

/**
 * The smallest difference of rates that A's and B's numbers of measured runs
 * detect 80% of the time with Fisher's test at p < 0.05. null: none, not
 * even the largest possible.
 */
export interface SmallestDetectable {
  readonly n_a: number;
  readonly n_b: number;
  /** When A's true rate is 0% (or 100%): a behaviour A never (or always) shows, the easiest case. */
  readonly from_edge: number | null;
  /** When A's true rate is 50% (not always the hardest case). */
  readonly from_half: number | null;
  /** At the hardest true rate of A over the grid 0% to 50% by 5 points (r and 1 − r alike). */
  readonly worst: { readonly rate_a: number; readonly difference: number | null };
}

/** One condition, overall (eval null) or in one eval, on both sides. */
export interface GroupComparison {
  readonly eval: string | null;
  readonly condition: string;
  readonly runs: { readonly a: number; readonly b: number };
  readonly measured: { readonly a: number; readonly b: number };
  readonly measures: readonly MeasureComparison[];
  readonly one_sided: readonly OneSidedMeasure[];
  /** null with no measured run on a side, or past 100 runs a side (not computed: it is small). */
  readonly smallest_detectable: SmallestDetectable | null;
}

/** A condition (overall, eval null) or an (eval, condition) that only one side has. */
export interface OneSidedGroup {
  readonly eval: string | null;
  readonly condition: string;
  readonly only: Side;
  readonly runs: number;
}

/** <out>/compare.json */
export interface CompareFile {
  readonly schema: 'evalrig/compare@1';
  readonly generated_at: string;
  readonly evalrig_version: string;
  readonly a: SideSummary;
  readonly b: SideSummary;
  readonly provenance: {
    readonly a: SideProvenance;
    readonly b: SideProvenance;
    readonly differences: readonly ProvenanceDifference[];
    readonly attribution: Attribution;
    /** The sentence the reports print: the warning, or what differs. */
    readonly verdict: string;
  };
  readonly groups: readonly GroupComparison[];
  readonly one_sided: readonly OneSidedGroup[];
  /** Things a reader must know about the inputs (runs without a record, a side compared with itself). */
  readonly notes: readonly string[];
}
