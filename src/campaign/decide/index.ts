/**
 * `evalrig run --until-decided`: the campaign played in rounds until the sequential test of
 * src/sequential decides (./rounds.ts), its design checked before anything starts
 * (./design.ts, ./primary.ts) and every look recorded in sequential.json (./looks.ts).
 */
export { designOf, type DesignRecord } from './design.js';
export { primaryMeasureOf, valueIn } from './primary.js';
export { decisionText } from './looks.js';
export { playUntilDecided, type DecidedRuns } from './rounds.js';
