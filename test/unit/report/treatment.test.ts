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

describe('report: each condition loaded, used, and its runs split by use', () => {
  const used = (u: boolean | undefined): Treatment => ({
    staged: [{ ...SKILL, ...(u === undefined ? {} : { used: u, first_use_call: u ? 2 : null }) }],
    reached: true,
    ...(u === undefined ? {} : { used: u }),
  });
  const measures = (checks: boolean) =>
    ({
      checks_passed: checks,
      record_tampered: false,
      pr_draft_at_hand_over: null,
    }) as RunRecord['measures'];

  it('counts use only where the record says it, and splits only when some runs used the skill and some did not', () => {
    const acc = new TreatmentAccumulator(['b', 'a']);
    for (const [u, checks] of [
      [true, true],
      [false, false],
      [undefined, true],
    ] as const)
      acc.add({
        condition: 'a',
        status: 'completed',
        treatment: used(u),
        measures: measures(checks),
      });
    acc.add({
      condition: 'b',
      status: 'completed',
      treatment: used(true),
      measures: measures(true),
    });
    const [b, a] = acc.summary();
    expect(b!.text).to.equal('b: the staged skill x loaded in 1/1 runs, used in 1/1');
    expect(b!.by_use).to.equal(undefined);
    expect(a!.text).to.equal(
      'a: the staged skill x loaded in 3/3 runs, used in 1/2 (not recorded in 1)',
    );
    expect(a!).to.deep.include({ used: 1, use_known: 2 });
    expect(a!.by_use!.text).to.equal(
      'a, runs that used x vs runs that did not: checks passed 1/1 vs 0/1; record tampered with (gh record or stream) 0/1 vs 0/1 (observational: not randomized)',
    );
    expect(Object.keys(a!.by_use!.used.measures)).to.deep.equal([
      'checks_passed',
      'record_tampered',
    ]);
  });

  it('an instructions file is loaded only: no use, no split', () => {
    const acc = new TreatmentAccumulator();
    const file = { kind: 'instructions' as const, path: 'GEMINI.md', name: null, loads: true };
    acc.add({
      condition: 'c',
      status: 'completed',
      treatment: { staged: [{ ...file, reached: true, first_call: 1 }], reached: true, used: null },
      measures: measures(true),
    });
    const [c] = acc.summary();
    expect(c).to.deep.include({
      used: null,
      use_known: 0,
      text: 'c: the staged GEMINI.md loaded in 1/1 runs',
    });
    expect(c!.staged[0]).to.deep.include({ used: null, loaded: 1 });
  });
});
