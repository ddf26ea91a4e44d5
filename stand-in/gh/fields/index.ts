export { stringifySorted } from './json.js';
export { selectFields, jsonFieldsMissing, pick } from './select.js';
export {
  PR_FIELDS,
  PR_FIELDS_NOT_PLAYED,
  prFieldValue,
  type PrDiff,
  type PrFieldSource,
} from './pr.js';
export { REPO_FIELDS, REPO_FIELDS_NOT_PLAYED, repoFieldValue } from './repo.js';
