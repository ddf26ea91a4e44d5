import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  compareSides,
  readCampaignSide,
  renderCompare,
  type CampaignSide,
} from '../../../src/compare/index.js';
import { writeReport } from '../../../src/report/index.js';
import { MIXED, writeCampaign } from '../../integration/report/fixture.js';

describe('compare: the comparison of two read campaigns', function () {
  this.timeout(60_000);
  let work: string;
  let side: CampaignSide;

  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'evalrig-compare-build-'));
    await writeCampaign(work, MIXED);
    await writeReport(work);
    side = await readCampaignSide(work);
  });
  after(() => rm(work, { recursive: true, force: true }));

  it('of a folder with itself: every difference 0 or unknown, nothing differs, and a note says so', () => {
    const c = compareSides(side, side, { now: new Date('2025-03-02T00:00:00Z') });
    expect(c.notes).to.deep.equal(['A and B are the same folder: every difference is 0.']);
    expect(c.provenance.attribution).to.equal('same');
    for (const g of c.groups)
      for (const m of g.measures)
        expect([0, null], `${g.condition} ${m.measure}`).to.include(m.difference);
    // 2 conditions overall, 2 evals x 2 conditions.
    expect(c.groups).to.have.length(6);
    const rendered = renderCompare(c);
    expect(JSON.parse(rendered.json)).to.deep.equal(c);
    expect(rendered.md).to.include('> A and B are the same folder: every difference is 0.');
  });

  it('says when a side has run folders without a record (runs going on, or cut)', () => {
    const going: CampaignSide = {
      ...side,
      dir: path.join(work, 'other'),
      benchmark: { ...side.benchmark, runs: { total: 20, without_record: 3 } },
    };
    expect(compareSides(side, going).notes).to.deep.equal([
      'B has 3 run folders without a record (runs still going, or cut): not in its numbers.',
    ]);
  });
});
