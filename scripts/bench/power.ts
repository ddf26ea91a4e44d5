/**
 * Benchmark of the power warning's cost: the grid of baselines the hardest one is sought over
 * (11 rates, one table of rejections for all: detectableGrid) against what the warning computed
 * before (the minimum detectable difference at 0% and at 50%, a table each), in the same
 * process, for the run counts a report meets. Each is computed cold (no cache), three times;
 * the medians are compared.
 *
 *   node --import tsx scripts/bench/power.ts
 */
import { detectableGrid, minimumDetectableDifference } from '../../src/report/stats.js';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function time(f: () => unknown): number {
  const t0 = performance.now();
  f();
  return performance.now() - t0;
}

console.log('runs a side | 0% and 50% | the grid (0% to 50% by 5) | ratio');
for (const n of [5, 10, 20, 30, 50, 100, 200]) {
  const before: number[] = [];
  const now: number[] = [];
  for (let i = 0; i < 3; i++) {
    before.push(
      time(() => {
        minimumDetectableDifference(n, n, { baseline: 0 });
        minimumDetectableDifference(n, n, { baseline: 0.5 });
      }),
    );
    now.push(time(() => detectableGrid(n, n)));
  }
  const [b, w] = [median(before), median(now)];
  console.log(`${n} | ${b.toFixed(0)} ms | ${w.toFixed(0)} ms | ${(w / b).toFixed(2)}x`);
}
