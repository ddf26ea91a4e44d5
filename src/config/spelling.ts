/**
 * Did-you-mean: the known name a misspelt one most likely meant (an unknown field, an agent
 * type), by edit distance.
 */

/** The known name closest to a misspelt one, when it is close enough to be a likely typo. */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = editDistance(word.toLowerCase(), c.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [c, d];
  }
  return bestDistance <= Math.max(1, Math.floor(word.length / 3)) ? best : undefined;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The kind a misspelt kind meant: the closest by edit distance, else the one kind it begins
 * or ends a part of (`claude` for `claude-code`, `codex-cli` for `codex`).
 *
 * @example
 * closestKind('claude', ['claude-code', 'codex']); // 'claude-code'
 */
export function closestKind(word: string, kinds: readonly string[]): string | undefined {
  const near = closest(word, kinds);
  if (near) return near;
  const w = word.toLowerCase();
  const parts = kinds.filter((k) => k.startsWith(w) || w.startsWith(k));
  return parts.length === 1 ? parts[0] : undefined;
}
