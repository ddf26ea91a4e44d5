/**
 * The interaction of a condition with two agents computed another way than src/report does:
 * Wilson's bounds as the roots of their quadratic (n + z²)p² − (2x + z²)p + x²/n = 0, the
 * difference's bounds from them (Newcombe's method 10), and the difference of differences'
 * bounds from those (MOVER), written from the papers' formulas, so that a test holds the
 * report's figures to an independent computation.
 */
const Z = 1.959963984540054;

function wilsonRoots(x: number, n: number): [number, number] {
  const a = n + Z * Z;
  const b = -(2 * x + Z * Z);
  const c = (x * x) / n;
  const root = Math.sqrt(Math.max(0, b * b - 4 * a * c));
  return [(-b - root) / (2 * a), (-b + root) / (2 * a)];
}

/** [difference, lower, upper] of x1/n1 − x2/n2. */
export function newcombe(x1: number, n1: number, x2: number, n2: number): [number, number, number] {
  const [l1, u1] = wilsonRoots(x1, n1);
  const [l2, u2] = wilsonRoots(x2, n2);
  const p1 = x1 / n1;
  const p2 = x2 / n2;
  const d = p1 - p2;
  return [
    d,
    Math.max(-1, d - Math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)),
    Math.min(1, d + Math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)),
  ];
}

/** [interaction, lower, upper] of (a.with − a.without) − (b.with − b.without), counts [x, n]. */
export function differenceOfDifferences(
  a: { with: [number, number]; without: [number, number] },
  b: { with: [number, number]; without: [number, number] },
): [number, number, number] {
  const [da, la, ua] = newcombe(...a.with, ...a.without);
  const [db, lb, ub] = newcombe(...b.with, ...b.without);
  const d = da - db;
  return [
    d,
    Math.max(-2, d - Math.sqrt((da - la) ** 2 + (ub - db) ** 2)),
    Math.min(2, d + Math.sqrt((ua - da) ** 2 + (db - lb) ** 2)),
  ];
}
