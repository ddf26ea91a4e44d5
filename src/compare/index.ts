/**
 * Two campaigns side by side: `evalrig compare <out-a> <out-b>`. Every
 * measure both have, B − A with its 95% interval, and the provenance of each
 * with a warning when more than one thing differs. See ./README.md.
 */
export {
  compareCampaigns,
  compareSides,
  renderCompare,
  writeCompare,
  type CompareOptions,
  type CompareRendering,
} from './build.js';
export { readCampaignSide, CompareInputError, type CampaignSide } from './read.js';
export {
  gradingMeasures,
  groupMeasures,
  pairGroups,
  compareRates,
  compareNumbers,
  smallestDetectable,
} from './pair.js';
export { provenanceDifferences, attribute, sideProvenance } from './provenance.js';
export {
  betterDirection,
  gateMeasures,
  worseOn,
  MEASURE_DIRECTIONS,
  type Better,
  type GateResult,
  type Worse,
} from './gate.js';
export { welchDifference, tQuantile, studentTCdf, type WelchDifference } from '../report/welch.js';
export type * from './types.js';
