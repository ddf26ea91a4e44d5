import { expect } from 'chai';
import type { RunRecord } from '../../../src/artifacts/index.js';
import { TreatmentAccumulator } from '../../../src/report/treatment.js';

type Treatment = NonNullable<RunRecord['treatment']>;
type Staged = Treatment['staged'][number];

const SKILL: Staged = {
  kind: 'skill',
  path: '.gemini/skills/x/SKILL.md',
  name: 'x',
  loads: true,
  reached: true,
  first_call: 1,
};

/** A run's treatment whose one staged skill reached (true), missed (false) or is undecided (a reason). */
function treatment(reached: boolean | string): Treatment {
  if (typeof reached === 'string') {
    const staged = { ...SKILL, reached: null, first_call: null, undecided: reached };
    return { staged: [staged], reached: null };
  }
  return { staged: [{ ...SKILL, reached, first_call: reached ? 1 : null }], reached };
}

describe('report: the treatment warnings, undecided runs apart', () => {
  it('an undecided run is neither reached nor missed: the warning says why it could not be decided', () => {
    const acc = new TreatmentAccumulator();
    const runs = [true, true, true, 'call 4: the request body was cut', 'an empty file'];
    for (const r of runs)
      acc.add({ condition: 'gemini', status: 'completed', treatment: treatment(r) });
    const [w, ...rest] = acc.warnings();
    expect(rest).to.deep.equal([]);
    expect(w!.text).to.equal(
      'gemini: the staged skill x (.gemini/skills/x/SKILL.md) could not be decided in 2/5 runs (call 4: the request body was cut)',
    );
    expect(w).to.deep.include({ reached: 3, runs: 5, undecided: 2 });
    expect(w!.missed[0]).to.deep.include({
      reached: 3,
      undecided: 2,
      undecided_reason: 'call 4: the request body was cut',
    });
  });

  it('missed and undecided runs in one condition: both said, the compared ones counted apart', () => {
    const acc = new TreatmentAccumulator();
    for (const r of [true, false, 'no request could be read'])
      acc.add({ condition: 'c', status: 'completed', treatment: treatment(r) });
    expect(acc.warnings().map((w) => w.text)).to.deep.equal([
      'c: the staged skill x (.gemini/skills/x/SKILL.md) reached the model in 1/3 runs: 1 of its runs compared nothing; the staged skill x (.gemini/skills/x/SKILL.md) could not be decided in 1/3 runs (no request could be read)',
    ]);
  });

  it('no warning when every run reached; a condition that stages nothing is not counted', () => {
    const acc = new TreatmentAccumulator();
    acc.add({ condition: 'ok', status: 'completed', treatment: treatment(true) });
    acc.add({ condition: 'ok', status: 'failed', treatment: treatment('cut') });
    acc.add({ condition: 'plain', status: 'completed', treatment: { staged: [], reached: null } });
    expect(acc.warnings()).to.deep.equal([]);
  });
});
