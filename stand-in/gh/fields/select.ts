import { GhError, NotPlayedError } from '../errors.js';

/**
 * Checks the fields asked with `--json` against gh's list for the command (the same errors,
 * worded as gh words them) and against what the stand-in plays.
 *
 * @param value the `--json` value (comma-separated), or undefined when `--json` had none
 * @param all gh's field names for the command
 * @param notPlayed fields gh has that the stand-in does not compute
 */
export function selectFields(
  value: string,
  all: readonly string[],
  notPlayed: ReadonlySet<string>,
): string[] {
  const sorted = [...all].sort();
  // pflag reads a string slice as CSV, spaces kept; an empty value is an empty list.
  const fields = value === '' ? [] : value.split(',');
  for (const f of fields) {
    if (!sorted.includes(f)) {
      throw new GhError(
        `Unknown JSON field: ${JSON.stringify(f)}\nAvailable fields:\n  ${sorted.join('\n  ')}`,
      );
    }
  }
  for (const f of fields) if (notPlayed.has(f)) throw new NotPlayedError(`--json field "${f}"`);
  return fields;
}

/** gh's answer to a `--json` given no value. */
export function jsonFieldsMissing(all: readonly string[]): GhError {
  return new GhError(
    `Specify one or more comma-separated fields for \`--json\`:\n  ${[...all].sort().join('\n  ')}`,
  );
}

/** Picks the named fields of an exporter into a plain object. */
export function pick(fields: string[], get: (field: string) => unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) out[f] = get(f);
  return out;
}
