import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  compareSides,
  readCampaignSide,
  renderCompare,
  type CompareFile,
  type MeasureComparison,
} from '../../../src/compare/index.js';
import { LOAD_NOTE, loadMoved } from '../../../src/compare/format.js';
import { writeReport } from '../../../src/report/index.js';
import { MIXED, writeCampaign } from '../../integration/report/fixture.js';

/** The comparison with every group's `measure` moved by +5, its interval [1, 9]: clear of 0. */
function moved(c: CompareFile, measures: readonly string[]): CompareFile {
  const move = (m: MeasureComparison): MeasureComparison =>
    measures.includes(m.measure) ? ({ ...m, difference: 5, ci95: [1, 9] } as MeasureComparison) : m;
  return { ...c, groups: c.groups.map((g) => ({ ...g, measures: g.measures.map(move) })) };
}

describe("compare: a figure the machine's load moves is never marked as the condition's effect", function () {
  this.timeout(60_000);
  let work: string;
  let c: CompareFile;

  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'evalrig-compare-format-'));
    await writeCampaign(work, MIXED);
    await writeReport(work);
    const side = await readCampaignSide(work);
    c = moved(compareSides(side, side), ['duration_s', 'files_changed']);
  });
  after(() => rm(work, { recursive: true, force: true }));

  it('knows the durations from the other figures', () => {
    for (const m of ['duration_s', 'phases.turn_ms', 'account.wall_time_s'])
      expect(loadMoved(m), m).to.equal(true);
    for (const m of ['files_changed', 'turns', 'agent.tokens_in', 'pr_described'])
      expect(loadMoved(m), m).to.equal(false);
  });

  it('marks a difference clear of zero in the page, but not a duration, and says why', () => {
    const { html, md } = renderCompare(c);
    const cell = (measure: string) =>
      new RegExp(
        `data-measure="${measure}"[^>]*>(?:<t[hd][^>]*>[^<]*</t[hd]>){3}<td class="([^"]*)"`,
      ).exec(html)?.[1];
    expect(cell('files_changed')).to.equal('v clear');
    expect(cell('duration_s')).to.equal('v');
    expect(html).to.include(`<p class="small load">${LOAD_NOTE.replace(/'/g, '&#39;')}</p>`);
    expect(md).to.include(`\n${LOAD_NOTE}\n`);
  });
});
