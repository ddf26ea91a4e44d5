/**
 * A map keyed by condition, as a list in the campaign's order (conditions.json's), any
 * condition found only on disk after them in the order first seen: every part of the report
 * lists conditions alike.
 */
export function inConditionOrder<T>(
  byCondition: ReadonlyMap<string, T>,
  order: readonly string[],
): Array<[string, T]> {
  const rank = (name: string): number => {
    const i = order.indexOf(name);
    return i === -1 ? order.length : i;
  };
  return [...byCondition].sort(([a], [b]) => rank(a) - rank(b));
}
