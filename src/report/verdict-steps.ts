/**
 * The verdict lines of the eval set's step checks (`step_checks.<name>`), from the behaviour
 * section's per-condition rates (`step.<name>`). Pooled over the evals, not tested within
 * them: the behaviour section keeps no per-eval figures.
 */
import type { BehaviourSection } from './behaviour.js';
import { rateDifference, type Comparison } from './benchmark.js';
import { verdictLine, type Verdict } from './verdict-line.js';
import { STEP_CHECK_PREFIX } from './verdict-phrases.js';

/** The behaviour section's name of a step check's rate. */
const STEP_RATE = 'step.';

/** One line per step check whose rate differs between the comparison's two conditions. */
export function stepCheckVerdicts(
  cmp: Comparison,
  behaviour: BehaviourSection | undefined,
): Verdict[] {
  const of = (name: string) => behaviour?.conditions.find((c) => c.condition === name);
  const base = of(cmp.baseline);
  const other = of(cmp.condition);
  if (!base || !other) return [];
  return Object.keys(other.rates)
    .filter((m) => m.startsWith(STEP_RATE) && base.rates[m])
    .flatMap((m) => {
      const [b, o] = [base.rates[m]!, other.rates[m]!];
      const name = m.slice(STEP_RATE.length);
      const v = verdictLine(cmp, `${STEP_CHECK_PREFIX}${name}`, rateDifference(b, o), o, b);
      return v ? [v] : [];
    });
}
