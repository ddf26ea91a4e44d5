/**
 * The sequential test of `evalrig run --until-decided`: a group-sequential design over the
 * planned maximum of runs a condition (./design.ts), its bounds by numerical integration
 * (./bounds.ts, ./walk.ts), the statistic of a look (./statistic.ts), and campaigns
 * simulated under it (./simulate.ts) for the benchmark, the tests and `evalrig plan`.
 */
export {
  boundsOf,
  decide,
  decisionAt,
  designWords,
  driftOf,
  fractionOf,
  plannedLooks,
  DEFAULT_ALPHA,
  DEFAULT_BETA,
  FUTILITY_FROM,
  type DecidedLook,
  type Decision,
  type Look,
  type SequentialDesign,
} from './design.js';
export {
  crossingProbability,
  efficacyBounds,
  lookBounds,
  obrienFlemingBounds,
  operating,
  type LookBounds,
  type Operating,
} from './bounds.js';
export { stratifiedZ, runsOf, type Counts } from './statistic.js';
export {
  fixedPower,
  fixedRunsFor,
  simulateCampaigns,
  type Simulated,
  type TrueRates,
} from './simulate.js';
export { sequentialPlan, type SequentialPlan } from './plan.js';
export { seededUniform } from '../seeded/index.js';
