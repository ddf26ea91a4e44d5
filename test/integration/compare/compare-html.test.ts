/**
 * compare.html opened in Chromium: self-contained, the warning at the top of
 * the provenance when two things differ, each difference where compare.json
 * says, and nothing wider than the window (hashes wrap).
 */
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { compareCampaigns, writeCompare, type CompareFile } from '../../../src/compare/index.js';
import { writeReport } from '../../../src/report/index.js';
import { GOOD_RUN, MIXED, writeCampaign } from '../report/fixture.js';

const CHROMIUM = '/usr/bin/chromium';

describe('compare: compare.html in Chromium', function () {
  this.timeout(120_000);
  let dir: string;
  let browser: Browser;
  let page: Page;
  let c: CompareFile;
  const requests: string[] = [];
  const consoleErrors: string[] = [];

  before(async () => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does it)`);
    }
    dir = await mkdtemp(path.join(os.tmpdir(), 'evalrig-compare-html-'));
    const a = path.join(dir, 'a');
    const b = path.join(dir, 'b');
    await writeCampaign(a, MIXED);
    await writeReport(a);
    await writeCampaign(b, { ...MIXED, plan: () => GOOD_RUN });
    await writeReport(b);
    // B ran on another commit of the codebase, by another evalrig: two things differ.
    const file = path.join(b, 'benchmark.json');
    const bench = JSON.parse(await readFile(file, 'utf8')) as {
      provenance: { codebases: Array<{ commit: string }>; evalrig_version: string };
    };
    bench.provenance.codebases[0]!.commit = '9'.repeat(40);
    bench.provenance.evalrig_version = '0.2.0';
    await writeFile(file, JSON.stringify(bench));
    c = await compareCampaigns(a, b);
    const files = await writeCompare(path.join(dir, 'cmp'), c);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    page.on('pageerror', (e) => consoleErrors.push(e.message));
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(pathToFileURL(files.html).href, { waitUntil: 'load' });
  });

  after(async () => {
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('renders with no console error and no request but the page itself', () => {
    expect(consoleErrors).to.deep.equal([]);
    expect(requests).to.have.length(1);
    expect(requests[0]).to.match(/^file:\/\/.*compare\.html$/);
  });

  it('shows the warning, and each thing that differs', async () => {
    const verdict = page.locator('#verdict');
    expect(await verdict.getAttribute('class')).to.equal('warn');
    expect(await verdict.textContent()).to.equal(
      'Warning: the codebase commit (add-feature, fix-bug) and the evalrig version both differ: the difference cannot be attributed to one.',
    );
    expect(await page.locator('#differences li').allTextContents()).to.deep.equal([
      'the codebase commit (add-feature, fix-bug): A add-feature @ cccccccccccc; fix-bug @ cccccccccccc; B add-feature @ 999999999999; fix-bug @ 999999999999',
      'the evalrig version: A 0.1.0; B 0.2.0',
    ]);
    expect(await page.locator('#provenance tr.differs').count()).to.equal(3);
  });

  it("shows each difference of compare.json in its group's row", async () => {
    let checked = 0;
    for (const g of c.groups) {
      for (const m of g.measures) {
        const row = page.locator(
          `tr[data-eval="${g.eval ?? ''}"][data-condition="${g.condition}"][data-measure="${m.measure}"]`,
        );
        if (m.a.n === 0 && m.b.n === 0) {
          expect(await row.count()).to.equal(0);
          continue;
        }
        expect(await row.getAttribute('data-difference')).to.equal(
          m.difference === null ? '' : String(m.difference),
        );
        checked++;
      }
    }
    expect(checked).to.be.greaterThan(50);
    const draft = page.locator(
      'tr[data-eval=""][data-condition="without_skill"][data-measure="pr_draft_at_hand_over"] td',
    );
    expect(await draft.allTextContents()).to.deep.equal([
      '55.6% (5/9)',
      '100.0% (10/10)',
      '+44.4 pts [+6.7, +73.3]',
      '0.0325',
    ]);
    expect(await draft.nth(2).getAttribute('class')).to.equal('v clear');
  });

  it('fits the window: long hashes wrap instead of widening the page', async () => {
    // Runs in the page: its globals, typed here without the DOM library.
    const widths = await page.evaluate(() => {
      const g = globalThis as unknown as {
        document: { documentElement: { scrollWidth: number } };
        innerWidth: number;
      };
      return { page: g.document.documentElement.scrollWidth, window: g.innerWidth };
    });
    expect(widths.page).to.be.at.most(widths.window);
  });
});
