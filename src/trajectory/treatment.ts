import type { RunRecord } from '../artifacts/index.js';
import type { Trajectory } from './types.js';

/**
 * run.json's treatment check as the trajectory carries it, field by field: the run page
 * shows each staged file loaded, not loaded or undecided, and used or not, and a field
 * run.json gains later must not break the trajectory's schema.
 */
export function treatmentOf(record: RunRecord): Pick<Trajectory, 'treatment'> {
  const t = record.treatment;
  if (!t) return {};
  return {
    treatment: {
      staged: t.staged.map((s) => ({
        kind: s.kind,
        path: s.path,
        name: s.name,
        loads: s.loads,
        reached: s.reached,
        first_call: s.first_call,
        ...(s.undecided !== undefined ? { undecided: s.undecided } : {}),
        ...(s.used !== undefined ? { used: s.used } : {}),
        ...(s.first_use_call !== undefined ? { first_use_call: s.first_use_call } : {}),
        ...(s.listed_by_agent !== undefined ? { listed_by_agent: s.listed_by_agent } : {}),
      })),
      reached: t.reached,
      ...(t.used !== undefined ? { used: t.used } : {}),
    },
  };
}
