/**
 * The viewer in a real headless Chromium, as the report's test opens report.html: a browser
 * launched once per suite, pages on a campaign folder served by `evalrig view`.
 */
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { RunRecord } from '../../src/artifacts/index.js';
import { readRunEvidence } from '../../src/judge/index.js';
import { startViewServer, type ViewServer } from '../../src/view/index.js';

export const CHROMIUM = '/usr/bin/chromium';

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does it)`);
  }
  return chromium.launch({
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
}

/** A page that records console errors (CSP violations included) and every request it made. */
export async function watchedPage(
  browser: Browser,
): Promise<{ page: Page; errors: string[]; requests: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors: string[] = [];
  const requests: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('request', (r) => requests.push(r.url()));
  return { page, errors, requests };
}

/** One step as the run page shows it: its kind and its whole text. */
export interface ShownStep {
  readonly kind: string;
  /** A message's role (user, system, developer). */
  readonly role: string | null;
  readonly text: string;
}

/** Every step of a run's page, in page order, long texts unfolded. */
export async function shownSteps(page: Page): Promise<ShownStep[]> {
  await page.waitForSelector('.steps .step');
  await page
    .locator('.steps button.unfold')
    .evaluateAll((buttons) => buttons.forEach((b) => (b as HTMLButtonElement).click()));
  return page.locator('.steps .step').evaluateAll((els) =>
    els.map((el) => ({
      kind: el.getAttribute('data-kind') ?? '',
      role: el.getAttribute('data-role'),
      text: el.textContent ?? '',
    })),
  );
}

/**
 * What an adapter agent's scripted pull-request session (test/support/adapter-campaign.ts)
 * must show, step by step, in this order: each turn's new user message, each model answer,
 * each tool call with its input and output, the gh call it made, and the stop that closed it.
 */
export function expectPullRequestSession(
  steps: readonly ShownStep[],
  shell: string,
  prompt: RegExp,
): void {
  const expected: Array<[string, RegExp[]]> = [
    ['message', [prompt]],
    ['model', [/I will write the plan and open a draft pull request with it\./u]],
    [
      'tool',
      [
        new RegExp(`tool ${shell}`, 'u'),
        /git checkout -q -b feature\/multiply/u,
        /evalrig\/toy\/pull\/1/u,
      ],
    ],
    ['gh', [/gh pr create --draft --title Add multiply/u, /exit 0/u]],
    ['model', [/The plan is in a draft pull request, awaiting your approval\./u]],
    ['stop', [/turn 1/u, /awaiting-approval/u, /PR #1 open/u, /draft/u]],
    ['message', [/The plan is approved: carry it out\./u]],
    ['model', []],
    ['tool', [/exports\.multiply = \(a, b\) => a \* b;/u, /evalrig\/toy\/pull\/1/u]],
    ['gh', [/gh pr edit --body-file PLAN\.md/u]],
    ['model', [/multiply is done and the description refreshed\./u]],
    ['stop', [/turn 2/u, /conformant/u]],
  ];
  // The agent's own context messages (system reminders, environment) come before the prompt.
  const start = steps.findIndex((s) => s.kind === 'message' && prompt.test(s.text));
  expect(start, 'the prompt is a step').to.be.greaterThan(-1);
  // The agents' own context (a system text, reminders) is shown too; the session is the rest.
  const shown = steps
    .slice(start)
    .filter(
      (s) =>
        s.kind !== 'message' ||
        (s.role === 'user' && !/system-reminder|environment_context/u.test(s.text)),
    );
  expect(shown.map((s) => s.kind)).to.deep.equal(expected.map(([kind]) => kind));
  expected.forEach(([, patterns], i) => {
    for (const p of patterns) expect(shown[i]!.text, `step ${i} (${shown[i]!.kind})`).to.match(p);
  });
}

/**
 * Serves a played adapter campaign and checks, in Chromium, that its nominal run's page shows
 * every step of the scripted session in order, with their inputs and outputs.
 */
export async function expectViewerShowsSession(
  outDir: string,
  run: { readonly eval: string; readonly shell: string; readonly prompt: RegExp },
): Promise<void> {
  const browser = await launchChromium();
  let view: ViewServer | undefined;
  try {
    view = await startViewServer({ outDir });
    const { page, errors } = await watchedPage(browser);
    await page.goto(`${view.url}_view/run/${run.eval}/default/1`);
    expectPullRequestSession(await shownSteps(page), run.shell, run.prompt);
    expect(await page.locator('h1').textContent()).to.contain(`${run.eval} / default / run-01`);
    expect(errors).to.deep.equal([]);
  } finally {
    await view?.close();
    await browser.close();
  }
}

/**
 * The judge's transcript excerpt of an adapter run is its witnessed trajectory: the tool
 * calls the gateway relayed, never a line of the agent's own (writable) stream.
 */
export async function expectJudgeSeesWitness(runDir: string, shell: string): Promise<void> {
  const record = JSON.parse(await readFile(path.join(runDir, 'run.json'), 'utf8')) as RunRecord;
  const evidence = await readRunEvidence(runDir, record, {
    maxDiffBytes: 65_536,
    maxTranscriptBytes: 65_536,
  });
  expect(evidence.transcript).to.contain(`[tool ${shell}]`);
  expect(evidence.transcript).to.contain('[model] multiply is done and the description refreshed.');
  expect(evidence.transcript).to.not.contain('"type":"result"');
}
