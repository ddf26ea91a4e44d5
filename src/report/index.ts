/**
 * Aggregation across runs and the written report: benchmark.json,
 * BASELINE.md, report.md and report.html at the top of a campaign folder,
 * recomputed from the stored runs. See ./README.md.
 */
export { writeReport, ReportInputError, type ReportOptions, type ReportSummary } from './write.js';
export { formatSummaryTable } from './summary.js';
export { accountLines, type CampaignAccount } from './account.js';
export { ReportStructureError } from './markdown.js';
export {
  wilson,
  fisherExact,
  fisherExactFraction,
  fisherBelow,
  fractionValue,
  type Fraction,
  newcombeDifference,
  minimumDetectableDifference,
  worstDetectableDifference,
  detectableGrid,
  hardestOf,
  BASELINE_GRID,
  type WorstDetectable,
  type DetectableOptions,
  RateAccumulator,
  NumberAccumulator,
  type RateStats,
  type NumberStats,
} from './stats.js';
export {
  cmhChiSquare,
  cmhTest,
  exactCmhFraction,
  type Stratum,
  type StratifiedP,
  type StratifiedTest,
} from './cmh.js';
export { mantelHaenszelDifference, type StratifiedDifference } from './mh-difference.js';
export { withinEvals, type EvalStratum, type WithinEvals } from './stratify.js';
export type { BenchmarkFile, Provenance } from './benchmark-file.js';
export type {
  GroupStats,
  MeasureStats,
  Comparison,
  RateDifference,
  NumberDifference,
  StatusCounts,
  CodebaseEntry,
} from './benchmark.js';
