/** evalrig's version, as `evalrig --version` says it (the artifacts record the same). */
export { evalrigVersion as version } from '../artifacts/version.js';
