/**
 * compare.json: two campaigns side by side. Its one declaration is its schema
 * (src/artifacts/schemas/compare.schema.json); the types are generated from it
 * (../artifacts/schemas/compare.ts, by scripts/generate-types.mjs) and named
 * here after compare's words, readonly all the way down. Field names are
 * snake_case: it is a file format. Every difference is B − A.
 */
import type { DeepReadonly } from '../artifacts/index.js';
import type * as Compare from '../artifacts/schemas/compare.js';

/** <out>/compare.json */
export type CompareFile = DeepReadonly<Compare.CompareFile>;

/** Which campaign: A is the first folder given, B the second. */
export type Side = OneSidedGroup['only'];

/** One campaign as compare read it: its folder as given, resolved, and when its benchmark.json was computed. */
export type SideSummary = DeepReadonly<Compare.Side>;

/** What a campaign's numbers were measured against. */
export type SideProvenance = DeepReadonly<Compare.SideProvenance>;

/** The agent a campaign played, as compare records it (its derived images left out). */
export type SideAgent = NonNullable<SideProvenance['agent']>;

/** A codebase a campaign used, with the evals that used it. */
export type SideCodebase = SideProvenance['codebases'][number];

/**
 * One thing that differs between the two campaigns' provenance. `aspect` is
 * stable (for tools); `what` names it for a reader; `a` and `b` say how.
 */
export type ProvenanceDifference = DeepReadonly<Compare.Difference>;

/** Same: nothing recorded differs; one: what differs is one thing; several: it cannot be attributed. */
export type Attribution = CompareFile['provenance']['attribution'];

/** A rate of one side: successes over the runs where the measure is known. */
export type SideRate = DeepReadonly<Compare.SideRate>;

/** A number of one side: its mean and sample standard deviation over n runs. */
export type SideNumber = DeepReadonly<Compare.SideNumber>;

/** A rate on both sides: the difference, Newcombe's 95% interval, Fisher's exact p (two-sided). */
export type RateComparison = DeepReadonly<Compare.RateComparison>;

/** A number on both sides: the difference of means, Welch's 95% interval and its degrees of freedom. */
export type NumberComparison = DeepReadonly<Compare.NumberComparison>;

export type MeasureComparison = RateComparison | NumberComparison;

/** A measure found on one side only (a check one eval set declares, a grading one side lacks). */
export type OneSidedMeasure = GroupComparison['one_sided'][number];

/**
 * The smallest difference of rates that A's and B's numbers of measured runs
 * detect 80% of the time with Fisher's test at p < 0.05. null: none, not
 * even the largest possible.
 */
export type SmallestDetectable = NonNullable<GroupComparison['smallest_detectable']>;

/** One condition, overall (eval null) or in one eval, on both sides. */
export type GroupComparison = DeepReadonly<Compare.Group>;

/** A condition (overall, eval null) or an (eval, condition) that only one side has. */
export type OneSidedGroup = CompareFile['one_sided'][number];
