/**
 * One seeded generator for everything that must repeat: simulations, load tests, fuzzing.
 * Plain code with no imports, below every other folder.
 */

/**
 * Uniform numbers in [0, 1) from a seed (mulberry32): small and fast, the same sequence on
 * every machine. Not for secrets.
 */
export function seededUniform(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
