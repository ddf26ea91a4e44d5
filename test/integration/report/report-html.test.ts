import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
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
    await page.screenshot({ path: SCREENSHOT.replace('.png', '-top.png') });
  });

  after(async () => {
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('opens on the verdict: its lines, in the order of benchmark.json, on the first screen', async () => {
    // The first section of the page, right under the title and its one-line lead.
    const firstSection = await page.locator('body > section').first().getAttribute('id');
    expect(firstSection).to.equal('verdict');
    const lines = await page.locator('#verdict li.verdict .text').allTextContents();
    expect(lines).to.deep.equal(bench.verdicts!.map((v) => v.text));
    // Two evals: each line is tested within them, and says so.
    expect(lines[0]).to.match(
      /^with_skill refreshes the PR description in execution in 100% vs 22% of runs, within evals \+78 pts \[32, 91\], p 0\.00\d\d; stratified by 2 evals: Mantel-Haenszel difference, exact CMH p$/,
    );
    // Significant lines stand out; the others say they could be chance.
    for (const v of bench.verdicts!) {
      const li = page.locator(`#verdict li[data-measure="${v.measure}"]`);
      expect(await li.getAttribute('class')).to.equal(v.significant ? 'verdict sig' : 'verdict');
    }
    const warning = page.locator('#verdict .power-warning');
    expect(await warning.textContent()).to.contain(
      'with_skill vs without_skill: with 10 and 9 runs only differences of ≥',
    );
    // The lines and their picture fit the first screen; the notes under them may not.
    const box = await page.locator('#verdict > ul').boundingBox();
    expect(box!.y + box!.height).to.be.lessThan(900);
  });

  it('draws the verdict as a forest plot: each line at its difference, zero marked, no script', async () => {
    const figure = page.locator('#verdict figure.forest');
    expect(await figure.count()).to.equal(1);
    const zero = await figure.locator('line.zero').boundingBox();
    const zeroX = zero!.x + zero!.width / 2;
    // The page's own geometry: each marker sits at its difference on one scale, whose sign
    // and size come from benchmark.json, not from the plot's code.
    const scales: number[] = [];
    for (const v of bench.verdicts!) {
      const row = figure.locator(
        `g.forest-row[data-key="${v.condition}/${v.baseline}/${v.measure}"]`,
      );
      const box = await row.locator(v.significant ? 'rect' : 'circle').boundingBox();
      const dx = box!.x + box!.width / 2 - zeroX;
      expect(Math.sign(Math.round(dx))).to.equal(Math.sign(Math.round(v.difference * 100)));
      if (Math.abs(v.difference) >= 0.05) scales.push(dx / v.difference);
    }
    expect(scales.length).to.be.greaterThan(0);
    for (const s of scales) expect(s).to.be.closeTo(scales[0]!, 1);
    expect(await figure.locator('script, foreignObject, a').count()).to.equal(0);
    expect(await page.locator('#verdict .viewer-note').textContent()).to.contain(
      'evalrig view <this folder>',
    );
  });

  it("folds each eval's own line under a line tested within evals, shown on a click", async () => {
    const v = bench.verdicts![0]!;
    const details = page.locator(`#verdict li[data-measure="${v.measure}"] details.per-eval`);
    const evalLines = details.locator('li');
    expect(await details.locator('summary').textContent()).to.equal('per eval (2)');
    expect(await evalLines.first().isVisible()).to.equal(false);
    await details.locator('summary').click();
    expect(await evalLines.first().isVisible()).to.equal(true);
    expect(await evalLines.allTextContents()).to.deep.equal(
      v.stratified!.per_eval.map((e) => e.text),
    );
    expect(await page.locator('#verdict p.small').textContent()).to.contain(
      'Lines "stratified by N evals" compare the conditions within each eval',
    );
  });

  it('keeps one colour per condition in every chart, as its legend shows', async () => {
    const fills = await page
      .locator('figure[data-chart] rect.bar')
      .evaluateAll((rects) =>
        rects.map((r) => [r.getAttribute('data-condition'), r.getAttribute('fill')]),
      );
    expect(fills.length).to.be.greaterThan(20);
    const byCondition = new Map<string, Set<string>>();
    for (const [c, fill] of fills) {
      if (!byCondition.has(c!)) byCondition.set(c!, new Set());
      byCondition.get(c!)!.add(fill!);
    }
    expect([...byCondition.keys()].sort()).to.deep.equal(['with_skill', 'without_skill']);
    const colours = [...byCondition.values()].map((s) => [...s]);
    for (const set of colours) expect(set).to.have.length(1);
    expect(colours[0]![0]).to.not.equal(colours[1]![0]);
    for (const [c, set] of byCondition) {
      const swatch = page.locator(`#charts .legend [data-condition="${c}"] .swatch`);
      expect(await swatch.getAttribute('style')).to.equal(`background:${[...set][0]!}`);
      expect(await swatch.isVisible()).to.equal(true);
    }
  });

  it("shows each eval's prompt, later messages and expectations", async () => {
    const add = page.locator('#evals .eval-prompt[data-eval="add-feature"]');
    const text = (await add.textContent()) ?? '';
    expect(text).to.contain('Plan add-feature, open a draft PR with the plan & hand over.');
    expect(text).to.contain('Approved <go on>.');
    expect(await add.locator('ul.expectations li').allTextContents()).to.deep.equal([
      'The PR is a draft at hand over.',
    ]);
    expect(
      await page.locator('#evals .eval-prompt[data-eval="fix-bug"] ul.expectations').count(),
    ).to.equal(0);
  });

  it('shows what the agent said at each stop, and how each run did on its message checks', async () => {
    const run = page.locator('details.run', { hasText: 'add-feature / without_skill / run-01' });
    expect(await run.locator('.stop .message').first().textContent()).to.contain(
      'gh: command not found',
    );
    const tag = run.locator('.message-checks [data-check="no_missing_gh"]');
    expect(await tag.getAttribute('data-passed')).to.equal('false');
    expect(await tag.textContent()).to.equal('no_missing_gh failed');
    const cell = page.locator(
      '#conditions td[data-condition="without_skill"][data-measure="message_checks.no_missing_gh"]',
    );
    expect(await cell.textContent()).to.contain('55.6% (5/9)');
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
    expect(checked).to.equal(bench.conditions.length * 8);
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
    // 8 rates, 6 numbers, 8 agent numbers (refused calls no run recorded: left out), 1 check
    // (tests), 1 message check.
    expect(await charts.count()).to.equal(24);
    expect(await page.locator('figure[data-chart="checks.tests"]').count()).to.equal(1);
    expect(await page.locator('figure[data-chart="agent.tool_calls_refused"]').count()).to.equal(0);
    const draft = page.locator('figure[data-chart="pr_draft_at_hand_over"] svg');
    const text = (await draft.textContent()) ?? '';
    for (const c of bench.conditions) {
      expect(text).to.contain(c.condition);
      expect(text).to.contain(pct(c.measures.pr_draft_at_hand_over.rate!));
    }
    const box = await draft.boundingBox();
    expect(box!.width).to.be.greaterThan(100);
  });

  it("shows the agent's numbers per condition with their spread", async () => {
    for (const c of bench.conditions) {
      const s = c.agent.tokens_in;
      const td = page.locator(
        `#conditions td[data-condition="${c.condition}"][data-measure="agent.tokens_in"]`,
      );
      expect(Number(await td.getAttribute('data-mean'))).to.equal(s.mean);
      expect(await td.getAttribute('data-n')).to.equal(String(s.n));
      expect(await td.textContent())
        .to.contain(`n ${s.n}`)
        .and.to.contain('±');
    }
    const cost = page.locator('figure[data-chart="agent.cost_usd"] svg');
    expect(await cost.textContent())
      .to.contain('with_skill')
      .and.to.contain('0.03');
    const diff = page.locator('table.comparison td[data-measure="agent.tool_calls"]');
    expect(Number(await diff.getAttribute('data-difference'))).to.be.closeTo(
      bench.comparisons[0]!.agent.tool_calls.difference!,
      1e-12,
    );
    expect(await diff.textContent()).to.equal('+4');
  });

  it('shows each agent turn at its stop: tool calls, tokens, cost, its error', async () => {
    const run = page.locator('details.run', { hasText: 'add-feature / with_skill / run-01' });
    const text = (await run.locator('.stop .agent').first().textContent()) ?? '';
    expect(text).to.contain('2 tool calls').and.to.contain('500 in / 50 out tokens');
    expect(await run.textContent())
      .to.contain('agent error')
      .and.to.contain('turn 2 done');
  });

  it('links every run to its files, and every link resolves to a file of the campaign', async () => {
    const hrefs = await page
      .locator('details.run a.file')
      .evaluateAll((as) => as.map((a) => (a as unknown as { href: string }).href));
    // run.json for all 20 runs, stops, transcripts or stdout, diff.patch and calls.jsonl.
    expect(hrefs.length).to.be.greaterThan(20 * 3);
    for (const href of hrefs) {
      expect(href).to.match(/^file:\/\//);
      const file = fileURLToPath(href);
      expect(file.startsWith(dir + path.sep), file).to.equal(true);
      expect(existsSync(file), file).to.equal(true);
    }
    const first = page.locator('details.run').first().locator('a.file');
    expect(await first.allTextContents()).to.deep.equal([
      'run.json',
      'stop-01.json',
      'stop-02.json',
      'turn-01.jsonl',
      'turn-02.jsonl',
      'diff.patch',
      'calls.jsonl',
    ]);
    // Following a link opens the stored file itself.
    const transcript = hrefs.find((h) => h.endsWith('/turns/turn-01.jsonl'))!;
    const opened = await browser.newPage();
    try {
      await opened.goto(transcript);
      expect(await opened.textContent('body')).to.contain('"type":"result"');
    } finally {
      await opened.close();
    }
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
