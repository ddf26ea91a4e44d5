import { expect } from 'chai';
import type { RunRecord } from '../../../src/artifacts/index.js';
import type { Provenance } from '../../../src/report/benchmark-file.js';
import { ReuseAccumulator, reuseLines, fingerprintRows } from '../../../src/report/reuse.js';

const hex = (c: string): string => c.repeat(64);

function run(condition: string, n: number, reused: boolean, script = hex('a')): RunRecord {
  const key = `add/${condition}/run-0${n}`;
  return {
    eval: 'add',
    condition,
    run: n,
    fingerprint: {
      sha256: hex('f'),
      inputs: { 'model.script': script, 'folder:scripts/add.json': hex('c') },
    },
    ...(reused
      ? {
          reused_from: {
            campaign: 'first',
            folder: '/w/out/first',
            run: key,
            fingerprint: hex('f'),
          },
        }
      : {}),
  } as unknown as RunRecord;
}

/** The reused runs and model scripts, as benchmark.json, BASELINE.md and report.md say them. */
describe('report: reused runs and model scripts', () => {
  const acc = new ReuseAccumulator();
  for (const n of [2, 1]) acc.add(run('without_skill', n, true));
  for (const n of [1, 2]) acc.add(run('with_skill', n, false, hex(String(n))));
  const p = acc.provenance() as Provenance;

  it('gathers them by source campaign, runs sorted, and the scripts by condition', () => {
    expect(p.reused).to.deep.equal([
      {
        campaign: 'first',
        folder: '/w/out/first',
        conditions: { without_skill: 2 },
        runs: ['add/without_skill/run-01', 'add/without_skill/run-02'],
      },
    ]);
    expect(p.model_scripts).to.deep.equal({
      without_skill: [hex('a')],
      with_skill: [hex('1'), hex('2')],
    });
    expect(p.eval_set_files).to.deep.equal({ 'scripts/add.json': [hex('c')] });
  });

  it("names them in BASELINE.md's rows and report.md's line", () => {
    expect(fingerprintRows(p)).to.deep.equal([
      ['model script sha256 (without_skill)', hex('a')],
      ['model script sha256 (with_skill)', `${hex('1')}, ${hex('2')}`],
      ['eval set file scripts/add.json sha256', hex('c')],
      [
        'reused runs (campaign first)',
        '2 runs of without_skill from /w/out/first: add/without_skill/run-01, add/without_skill/run-02',
      ],
    ]);
    expect(reuseLines(p, 4)).to.deep.equal([
      "2 of 4 runs were reused from campaign first (/w/out/first), their every input unchanged: without_skill 2. Their measures, durations and costs are that campaign's; the account leaves them out.",
    ]);
  });

  it('says nothing when no run was reused and no script played', () => {
    const none = new ReuseAccumulator();
    none.add({ eval: 'add', condition: 'c', run: 1 } as unknown as RunRecord);
    expect(none.provenance()).to.deep.equal({});
    expect(fingerprintRows({} as Provenance)).to.deep.equal([]);
  });
});
