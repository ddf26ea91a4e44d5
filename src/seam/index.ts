/**
 * The vocabulary under the sandbox seam: exec, limits, labels. Imported by
 * sandbox/ (which speaks it to campaigns) and by runtime/ (whose Docker
 * containers implement it), so neither owns the other's words.
 */
export * from './types.js';
