/**
 * The files a campaign writes: their types, their JSON Schemas
 * (./schemas/<kind>.schema.json) and the one way to write them (validated,
 * atomic). Where each file goes, and reading them back, is src/campaign-folder's.
 */
export * from './types.js';
export { writeArtifact, writeFileAtomic } from './io.js';
export { evalrigVersion } from './version.js';
export {
  ArtifactSchemaError,
  assertArtifact,
  describeAjvErrors,
  schemaUrl,
  type ArtifactKind,
} from './validate.js';
