/**
 * A mined eval's reference diff beside the run's diff, on the run page of a real campaign
 * (the toy codebase, the scripted agent, the real engine) in a real headless Chromium: both
 * shown as text, markup in the reference never run; report.html shows them too, escaped; the
 * reference capped as it is read.
 */
import { expect } from 'chai';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { MAX_DIFF_BYTES, readRunDiffs } from '../../../src/trajectory/index.js';
import { writeReport } from '../../../src/report/index.js';
import { startViewServer } from '../../../src/view/server.js';
import { playCampaign } from '../../support/campaign.js';
import { requireDocker } from '../../support/docker.js';
import { makeToyWorkspace, type ToyWorkspace } from '../../support/toy.js';
import { launchChromium, watchedPage } from '../../support/viewer.js';

const MARKUP = '<img src=x onerror=window.__pwned=1>';
const REFERENCE = `diff --git a/math.js b/math.js\n+exports.multiply = (a, b) => a * b; // ${MARKUP}\n`;
const ID = { eval: 'mined', condition: 'default', run: 1 };

describe("view: a run beside its eval's reference diff", function () {
  before(requireDocker);
  this.timeout(240_000);
  let ws: ToyWorkspace;
  let browser: Browser;

  before(async () => {
    ws = await makeToyWorkspace({
      scripts: {
        mined: {
          turns: [
            {
              actions: [
                { append: 'math.js', content: 'exports.multiply = (a, b) => a * b;\n' },
                { stop: 'conformant' },
              ],
            },
          ],
        },
      },
      files: { 'tasks/mined/reference.patch': REFERENCE },
      set: {
        evals: [{ id: 'mined', prompt: 'add multiply', reference: 'tasks/mined/reference.patch' }],
      },
    });
    await playCampaign(ws);
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await ws?.cleanup();
  });

  it("shows the run's diff and the reference side by side, as text", async () => {
    const server = await startViewServer({ outDir: ws.outDir });
    try {
      const { page, errors } = await watchedPage(browser);
      await page.goto(`http://127.0.0.1:${server.port}/_view/run/mined/default/1`);
      await page.waitForSelector('#diffs .pair');
      const cells = await page.$$eval('#diffs .cell', (els) =>
        els.map((e) => ({
          head: e.querySelector('h3')!.textContent,
          text: e.querySelector('pre')!.textContent,
        })),
      );
      expect(cells[0]!.head).to.equal("the run's diff");
      expect(cells[0]!.text).to.include('+exports.multiply = (a, b) => a * b;');
      expect(cells[1]!.head).to.equal('the reference (tasks/mined/reference.patch)');
      expect(cells[1]!.text).to.equal(REFERENCE);
      expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).to.equal(
        undefined,
      );
      expect(await page.$$('#diffs img')).to.have.length(0);
      expect(errors).to.deep.equal([]);
    } finally {
      await server.close();
    }
  });

  it("shows them in a small campaign's report.html too, escaped, in the run's box", async () => {
    await writeReport(ws.outDir);
    const html = await readFile(path.join(ws.outDir, 'report.html'), 'utf8');
    const box = html.slice(html.indexOf('<details class="reference-diff">'));
    expect(box).to.match(
      /^<details class="reference-diff"><summary class="small">the run's diff beside the reference<\/summary>/u,
    );
    expect(box).to.include(
      `<pre>${REFERENCE.replaceAll('<', '&lt;').replaceAll('>', '&gt;')}</pre>`,
    );
    expect(html).to.not.include(MARKUP);
  });

  it('reads the reference host-side up to its cap, and none for an eval without one', async () => {
    const big = path.join(path.dirname(ws.evalSetFile), 'tasks/mined/reference.patch');
    await writeFile(big, `${REFERENCE}${'+x\n'.repeat(MAX_DIFF_BYTES)}`);
    const d = await readRunDiffs(ws.outDir, ID);
    expect(d.reference!.startsWith(REFERENCE)).to.equal(true);
    expect(Buffer.byteLength(d.reference!)).to.be.below(MAX_DIFF_BYTES + 1024);
    expect(d.run).to.include('exports.multiply');
    const none = await readRunDiffs(ws.outDir, { ...ID, eval: 'other' });
    expect(none.reference).to.equal(null);
  });
});
