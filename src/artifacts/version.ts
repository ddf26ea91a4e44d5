import { readFileSync } from 'node:fs';

/**
 * evalrig's version, from its package.json (two levels up from src/ or dist/src/): the
 * provenance every artifact records, and what `evalrig --version` says.
 */
export const evalrigVersion: string = (() => {
  for (const rel of ['../../package.json', '../../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'evalrig' && pkg.version) return pkg.version;
    } catch {
      // try the next location
    }
  }
  return '0.0.0';
})();
