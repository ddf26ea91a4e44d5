/**
 * Benchmark of `evalrig run --until-decided`'s design: 10,000 campaigns simulated per case
 * (one eval, rounds of one run a condition, at most 40 runs a condition, the smallest effect
 * 20 pts), each against the fixed design of the same power in the same run. Prints the
 * false-positive rate at no effect (it must stay at most 5%), and under each effect the power,
 * the mean runs a condition played, and the runs the fixed design of that power needs.
 *
 *   node --import tsx scripts/bench/sequential.ts [campaigns]
 */
import {
  fixedRunsFor,
  simulateCampaigns,
  type SequentialDesign,
  type TrueRates,
} from '../../src/sequential/index.js';

const campaigns = Number(process.argv[2] ?? 10_000);
const design: SequentialDesign = { alpha: 0.05, beta: 0.2, minEffect: 0.2, maxRuns: 40 };
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

const cases: Array<{ name: string; rates: TrueRates; evals?: TrueRates[] }> = [
  { name: 'no effect at 50%', rates: { condition: 0.5, baseline: 0.5 } },
  { name: 'no effect at 20%', rates: { condition: 0.2, baseline: 0.2 } },
  { name: '+20 pts from 50%', rates: { condition: 0.7, baseline: 0.5 } },
  { name: '+30 pts from 50%', rates: { condition: 0.8, baseline: 0.5 } },
  { name: '+40 pts from 40%', rates: { condition: 0.8, baseline: 0.4 } },
  { name: '+60 pts from 20%', rates: { condition: 0.8, baseline: 0.2 } },
  // Two evals, 20 runs a condition each, one easy and one hard: tested within evals.
  {
    name: 'no effect, 2 evals at 20% and 80%',
    rates: { condition: 0.5, baseline: 0.5 },
    evals: [
      { condition: 0.2, baseline: 0.2 },
      { condition: 0.8, baseline: 0.8 },
    ],
  },
];

// The fixed design of the same power as the sequential one at the smallest effect.
const atMin = simulateCampaigns(design, [cases[2]!.rates], { campaigns, round: 1, seed: 1 });
const fixedAtMin = fixedRunsFor(atMin.significant / campaigns, cases[2]!.rates, design.alpha);

console.log(
  `${campaigns} campaigns a case, at most ${design.maxRuns} runs a condition, smallest effect ${design.minEffect * 100} pts`,
);
console.log(
  'case | significant | futile | cap | mean runs | fixed design, same power | runs saved',
);
for (const [i, c] of cases.entries()) {
  const s = simulateCampaigns(design, c.evals ?? [c.rates], { campaigns, round: 1, seed: 100 + i });
  const effect = c.rates.condition !== c.rates.baseline;
  // At no effect there is no power to match: the design's power at its smallest effect is.
  const fixed = effect
    ? fixedRunsFor(s.significant / campaigns, c.rates, design.alpha)
    : fixedAtMin;
  const saved = fixed === null ? 'n/a' : pct(1 - s.meanRuns / fixed);
  console.log(
    `${c.name} | ${pct(s.significant / campaigns)} | ${pct(s.futile / campaigns)} | ${pct(s.cap / campaigns)} | ${s.meanRuns.toFixed(1)} | ${fixed ?? 'n/a'} | ${saved}`,
  );
  if (!effect && s.significant / campaigns > design.alpha) {
    console.error(
      `false-positive rate ${pct(s.significant / campaigns)} is above ${pct(design.alpha)}`,
    );
    process.exitCode = 1;
  }
}
