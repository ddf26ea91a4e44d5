/**
 * The viewer on a stored campaign (no engine: the report's synthetic folders) whose agent
 * refused tool calls and whose skill loaded in some runs, was undecided in one and used in
 * others: the run page flags the refused calls at their stop and shows the run's treatment,
 * the overview says the report's first lines, and every name stays text.
 */
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import type { RunRecord } from '../../../src/artifacts/index.js';
import { writeReport } from '../../../src/report/index.js';
import { startViewServer, type ViewServer } from '../../../src/view/index.js';
import { launchChromium, watchedPage } from '../../support/viewer.js';
import { GOOD_RUN, writeCampaign, type RunPlan } from '../report/fixture.js';

const TOOL = '<img src=x onerror=window.__pwned=1>';
const WHY = 'call 3 could not be read <script>window.__pwned=2</script>';

function treatment(i: number): NonNullable<RunRecord['treatment']> {
  const skill = {
    kind: 'skill',
    path: '.gemini/skills/pr-flow/SKILL.md',
    name: 'pr-flow',
  } as const;
  if (i === 3) {
    const staged = { ...skill, loads: true, reached: null, first_call: null, undecided: WHY };
    return {
      staged: [{ ...staged, used: false, first_use_call: null }],
      reached: null,
      used: false,
    };
  }
  const used = i === 1;
  return {
    staged: [
      {
        ...skill,
        loads: true,
        reached: true,
        first_call: 1,
        used,
        first_use_call: used ? 4 : null,
      },
    ],
    reached: true,
    used,
  };
}

function plan(i: number): RunPlan {
  return {
    ...GOOD_RUN,
    treatment: treatment(i),
    agent: {
      tokensIn: 100,
      tokensOut: 10,
      cacheRead: 0,
      cacheWrite: 0,
      costUsd: 0.01,
      toolCalls: 3,
      toolCallsFailed: 0,
      modelRequests: 2,
      toolCallsRefused: i === 2 ? 2 : 0,
      refusedTool: TOOL,
    },
  };
}

describe('view: refused tool calls and the treatment check, in a real headless Chromium', function () {
  this.timeout(120_000);
  let dir: string;
  let view: ViewServer;
  let browser: Browser;
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'evalrig-view-caveats-'));
    await writeCampaign(dir, {
      evals: ['pr'],
      conditions: ['gemini'],
      baseline: 'gemini',
      runs: 3,
      plan: (_e, _c, i) => plan(i),
    });
    await writeReport(dir);
    view = await startViewServer({ outDir: dir });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await view?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('flags the refused calls at the stop of the turn that refused them, by name, as text', async () => {
    const { page, errors } = await watchedPage(browser);
    await page.goto(`${view.url}_view/run/pr/gemini/2`);
    await page.waitForSelector('section.stop');
    const flags = page.locator('section.stop .refused');
    expect(await flags.count()).to.equal(1);
    expect(await flags.getAttribute('data-refused')).to.equal('2');
    expect(await flags.textContent()).to.equal(
      `⚠ 2 tool calls refused by the agent ${TOOL} ×2: its own policy blocked them, so they never ran`,
    );
    // The turn that refused is the last one.
    expect(await page.locator('section.stop[data-turn="2"] .refused').count()).to.equal(1);
    expect(await page.locator('main img').count()).to.equal(0);
    expect(errors).to.deep.equal([]);
    await page.close();
  });

  it("shows the run's treatment: loaded and used, or undecided with why", async () => {
    const { page, errors } = await watchedPage(browser);
    await page.goto(`${view.url}_view/run/pr/gemini/1`);
    const item = page.locator('#treatment li');
    await item.waitFor();
    expect(await item.textContent()).to.equal(
      'loadedusedskill pr-flow (.gemini/skills/pr-flow/SKILL.md) · first sent in model call 1 · used in model call 4',
    );
    expect(await page.locator('section.stop .refused').count()).to.equal(0);
    await page.goto(`${view.url}_view/run/pr/gemini/3`);
    await page.locator('#treatment li').waitFor();
    expect(await page.locator('#treatment li').getAttribute('data-reached')).to.equal('null');
    expect(await page.locator('#treatment li .tag').allTextContents()).to.deep.equal([
      'undecided',
      'not used',
    ]);
    expect(await page.locator('#treatment .undecided').textContent()).to.equal(
      `could not be decided: ${WHY}`,
    );
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).to.equal(undefined);
    expect(errors).to.deep.equal([]);
    await page.close();
  });

  it("opens the overview on the report's first lines: the refusal warning and the treatment", async () => {
    const { page, errors } = await watchedPage(browser);
    await page.goto(view.url);
    await page.locator('#verdict .treatment-summary').waitFor();
    const notes = await page.locator('#verdict p.note').allTextContents();
    expect(notes).to.include(
      `⚠ gemini: the agent refused 2 tool call(s) in 1/3 runs (${TOOL}): its own policy blocked them, so what it was asked to do did not happen.`,
    );
    const [line, split, ...rest] = await page
      .locator('#verdict .treatment-summary li')
      .allTextContents();
    expect(line).to.equal(
      'gemini: the staged skill pr-flow loaded in 2/3 runs (undecided in 1), used in 1/3',
    );
    expect(split).to.match(
      /^gemini, runs that used pr-flow vs runs that did not: checks passed 1\/1 vs 2\/2; .* \(observational: not randomized\)$/u,
    );
    expect(rest).to.deep.equal([]);
    expect(await page.locator('main img').count()).to.equal(0);
    expect(errors).to.deep.equal([]);
    await page.close();
  });
});
