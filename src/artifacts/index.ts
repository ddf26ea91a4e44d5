/**
 * The files a campaign writes: their types, their JSON Schemas
 * (./schemas/<kind>.schema.json) and the one way to write them (validated,
 * atomic). Writers (campaign, report) and readers (report) meet here.
 */
export * from './types.js';
export { writeArtifact, readArtifact, writeFileAtomic } from './io.js';
export { digestStops, verifyRunFiles } from './stops.js';
export { evalrigVersion } from './version.js';
export {
  ArtifactSchemaError,
  assertArtifact,
  describeAjvErrors,
  schemaUrl,
  type ArtifactKind,
} from './validate.js';
