const UNITS: Record<string, number> = { k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/** Docker refuses a memory limit under 6 MiB. */
export const MIN_MEMORY_BYTES = 6 * 1024 ** 2;

/**
 * The largest limit written in evals.json: byte counts stay exact integers
 * (8 PiB, far above any engine; the engine's own memory is checked when a
 * campaign starts).
 */
export const MAX_MEMORY_BYTES = Number.MAX_SAFE_INTEGER;

/**
 * A memory size as written in evals.json, in bytes: "512m" (binary units,
 * like Docker's --memory), "2g", or a number of bytes.
 *
 * @example parseMemory('512m') // 536870912
 * @example parseMemory(1048576) // 1048576
 */
export function parseMemory(value: string | number): number {
  if (typeof value === 'number') return value;
  const match = /^([0-9]+)([kmg])$/i.exec(value);
  if (!match) throw new RangeError(`not a memory size: ${JSON.stringify(value)}`);
  return Number(match[1]) * UNITS[match[2]!.toLowerCase()]!;
}
