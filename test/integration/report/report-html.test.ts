import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { writeReport, type BenchmarkFile } from '../../../src/report/index.js';
import { MIXED, writeCampaign } from './fixture.js';

const CHROMIUM = '/usr/bin/chromium';
const SCREENSHOT = path.join(os.tmpdir(), 'evalrig-report.png');

const pct = (v: number): string => `${(v * 100).toFixed(1)}%`;

describe('report: report.html in a real headless Chromium', function () {
  let dir: string;
  let bench: BenchmarkFile;
  let browser: Browser;
  let page: Page;
  const consoleErrors: string[] = [];
  const requests: string[] = [];

  before(async function () {
    if (!existsSync(CHROMIUM)) {
      throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does it)`);
    }
    dir = await mkdtemp(path.join(os.tmpdir(), 'evalrig-report-html-'));
    await writeCampaign(dir, MIXED);
    await writeReport(dir);
    bench = JSON.parse(await readFile(path.join(dir, 'benchmark.json'), 'utf8')) as BenchmarkFile;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    page.on('pageerror', (e) => consoleErrors.push(e.message));
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(pathToFileURL(path.join(dir, 'report.html')).href, { waitUntil: 'load' });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
  });

  after(async () => {
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('renders with no console error and no request leaving file://', () => {
    expect(consoleErrors).to.deep.equal([]);
    expect(requests.length).to.be.greaterThan(0);
    for (const url of requests) expect(url).to.match(/^file:\/\//);
  });

  it('shows the rates of benchmark.json, with n and interval, in the per-condition table', async () => {
    let checked = 0;
    for (const c of bench.conditions) {
      for (const [measure, stats] of Object.entries(c.measures)) {
        if (!('rate' in stats)) continue;
        const td = page.locator(
          `#conditions td[data-condition="${c.condition}"][data-measure="${measure}"]`,
        );
        const text = (await td.textContent()) ?? '';
        if (stats.rate === null) {
          expect(text).to.contain('n/a');
        } else {
          expect(text).to.contain(`${pct(stats.rate)} (${stats.successes}/${stats.n})`);
          expect(text).to.contain(`[${pct(stats.ci95![0])}, ${pct(stats.ci95![1])}]`);
          expect(Number(await td.getAttribute('data-rate'))).to.equal(stats.rate);
        }
        checked++;
      }
    }
    expect(checked).to.equal(bench.conditions.length * 7);
  });

  it('shows the means of benchmark.json', async () => {
    for (const c of bench.conditions) {
      const s = c.measures.files_changed;
      const td = page.locator(
        `#conditions td[data-condition="${c.condition}"][data-measure="files_changed"]`,
      );
      expect(Number(await td.getAttribute('data-mean'))).to.equal(s.mean);
      expect(await td.textContent()).to.contain(`n ${s.n}`);
    }
  });

  it('draws one chart per measure, as inline SVG with a row per condition', async () => {
    const charts = page.locator('figure[data-chart] svg');
    expect(await charts.count()).to.equal(13);
    const draft = page.locator('figure[data-chart="pr_draft_at_hand_over"] svg');
    const text = (await draft.textContent()) ?? '';
    for (const c of bench.conditions) {
      expect(text).to.contain(c.condition);
      expect(text).to.contain(pct(c.measures.pr_draft_at_hand_over.rate!));
    }
    const box = await draft.boundingBox();
    expect(box!.width).to.be.greaterThan(100);
  });

  it('shows the comparison with its Fisher p-value', async () => {
    const cmp = bench.comparisons[0]!;
    const p = cmp.measures.pr_draft_at_hand_over.p_value!;
    const cell = page.locator('table.comparison td[data-measure="pr_draft_at_hand_over"] + td');
    expect(await cell.textContent()).to.equal(p.toFixed(4));
  });

  it('shows a timeline per run with its stops: kind, PR draft and described, calls', async () => {
    expect(await page.locator('details.run').count()).to.equal(bench.runs.total);
    const first = page.locator('details.run').first();
    const text = (await first.textContent()) ?? '';
    expect(text).to.contain('add-feature / with_skill / run-01');
    expect(text).to.contain('awaiting-approval');
    expect(text).to.contain('draft');
    expect(text).to.contain('described');
    expect(text).to.contain('gh pr create --draft');
    const failed = page.locator('details.run', { hasText: 'fix-bug / without_skill / run-05' });
    expect(await failed.textContent()).to.contain('No stop reached');
  });
});
