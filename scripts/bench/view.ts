/**
 * Benchmark of `evalrig view` in a real headless Chromium, against baselines in the same run:
 *
 * - first screen: the overview (verdict, per-condition table, every run's row) of a 1,000-run
 *   and a 10,000-run campaign (scripts/bench/report.ts's synthetic runs), against Chromium
 *   opening the same campaign's static report.html. Goal: under 2 s at 1,000 runs.
 * - one run's trajectory of 500 steps (a flight record of 250 model calls, each a text and a
 *   Bash call whose output the next request carries), against the same page on a 10-step run.
 *   Goal: under 1 s.
 * - the server's peak memory after serving the first screen of 10,000 runs vs 1,000 runs.
 *   Goal: flat (it reads on demand).
 *
 *   npm run build && node --import tsx scripts/bench/view.ts
 *
 * The server is the compiled CLI (`node dist/src/cli/main.js view`), one process per campaign,
 * so its peak RSS (VmHWM) is its own.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { execa, type ResultPromise } from 'execa';
import type { Browser } from 'playwright-core';
import { flightFiles } from '../../src/campaign-folder/index.js';
import { FlightRecorder, type ModelCall } from '../../src/flight/index.js';
import { writeReport } from '../../src/report/index.js';
import { largeCampaign, writeCampaign } from '../../test/integration/report/fixture.js';
import { launchChromium } from '../../test/support/viewer.js';

const root = path.resolve(import.meta.dirname, '../..');
const CLI = path.join(root, 'dist/src/cli/main.js');

async function campaign(runsPer: number): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `evalrig-bench-view-${runsPer * 4}-`));
  await writeCampaign(dir, largeCampaign(runsPer));
  await writeReport(dir);
  return dir;
}

/** A flight record of `calls` model calls in `runDir`: each answers a text and one Bash call. */
async function session(runDir: string, calls: number): Promise<void> {
  const files = flightFiles(runDir);
  await rm(files.calls, { force: true });
  const recorder = new FlightRecorder({
    logPath: files.calls,
    bodies: { blocksPath: files.blocks, manifestPath: files.manifest },
  });
  const history: object[] = [{ role: 'user', content: [{ type: 'text', text: 'Fix the bug.' }] }];
  const t0 = Date.parse('2026-01-01T00:00:00Z');
  for (let k = 1; k <= calls; k++) {
    const seq = recorder.nextSeq()!;
    const request = recorder.keepRequest(
      seq,
      Buffer.from(JSON.stringify({ model: 'm', tools: [{ name: 'Bash' }], messages: history })),
    );
    const id = `toolu_${k}`;
    const command = `grep -rn "case ${k}" src/ | head -40`;
    const text = `Step ${k}: looking at case ${k}.`;
    const events = [
      { type: 'message_start', message: { id: `msg_${k}`, usage: { input_tokens: 100 } } },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text } },
      {
        type: 'content_block_start',
        index: 1,
        content_block: { type: 'tool_use', id, name: 'Bash', input: {} },
      },
      {
        type: 'content_block_delta',
        index: 1,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify({ command }) },
      },
      { type: 'message_stop' },
    ];
    const response = recorder.keepResponse(
      seq,
      Buffer.from(events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join('')),
    );
    const call: ModelCall = {
      seq,
      time: new Date(t0 + k * 2000).toISOString(),
      method: 'POST',
      path: '/v1/messages',
      api: 'messages',
      model: 'm',
      status: 200,
      outcome: 'complete',
      reason: null,
      requestBytes: 1,
      responseBytes: 1,
      latencyMs: 900,
      tokens: { input: 100, output: 30, cacheRead: 0, cacheWrite: 0 },
      answerId: `msg_${k}`,
      stopReason: 'tool_use',
      toolCalls: [{ id, name: 'Bash' }],
      request: request.ref!,
      response: response!,
    };
    recorder.log(call);
    const output = Array.from(
      { length: 40 },
      (_, j) => `src/file${j}.ts:${k}: case ${k}: return ${j};`,
    ).join('\n');
    history.push(
      {
        role: 'assistant',
        content: [
          { type: 'text', text },
          { type: 'tool_use', id, name: 'Bash', input: { command } },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: output }] },
    );
  }
  await recorder.close();
}

/** The compiled CLI serving `dir`; its URL, and its peak RSS on demand. */
async function serve(
  dir: string,
): Promise<{ url: string; peakKiB: () => Promise<number>; stop: () => Promise<void> }> {
  const child: ResultPromise = execa('node', [CLI, 'view', dir], { reject: false });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  while (!/at (http:\/\/127\.0\.0\.1:\d+\/)/u.test(stderr)) {
    if (child.exitCode !== null) throw new Error(`evalrig view did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return {
    url: /at (http:\/\/127\.0\.0\.1:\d+\/)/u.exec(stderr)![1]!,
    peakKiB: async () => {
      const status = await readFile(`/proc/${child.pid}/status`, 'utf8');
      return Number(/VmHWM:\s+(\d+)/u.exec(status)![1]);
    },
    stop: async () => {
      child.kill('SIGTERM');
      await child;
    },
  };
}

/** Best of `n` times (ms) to open `url` until at least `count` elements match `selector`. */
async function timeTo(
  browser: Browser,
  url: string,
  selector: string,
  count: number,
  n = 3,
): Promise<number> {
  const times: number[] = [];
  for (let k = 0; k < n; k++) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const t0 = performance.now();
    await page.goto(url);
    // A function, not a string: the viewer's policy forbids evaluating strings.
    await page.waitForFunction(
      ([sel, k]) => document.querySelectorAll(sel as string).length >= (k as number),
      [selector, count] as const,
      { timeout: 60_000 },
    );
    times.push(performance.now() - t0);
    await page.close();
  }
  return Math.min(...times);
}

/**
 * How a long trajectory reads: how many tool outputs are folded, and how many screens the page
 * takes, folded and with one output shown whole.
 */
async function readability(
  browser: Browser,
  url: string,
): Promise<{ tools: number; folded: number; screens: number; unfoldedScreens: number }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(url);
  await page.waitForSelector('.steps .step-tool');
  const measure = () =>
    page.evaluate(() => ({
      tools: document.querySelectorAll('.steps .step-tool').length,
      folded: document.querySelectorAll('.steps .step-tool .folded').length,
      height: document.documentElement.scrollHeight,
    }));
  const before = await measure();
  await page.locator('.steps .step-tool button.unfold').first().click();
  const after = await measure();
  await page.close();
  return {
    tools: before.tools,
    folded: before.folded,
    screens: before.height / 900,
    unfoldedScreens: (after.height - before.height) / 900,
  };
}

const s = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;

const browser = await launchChromium();
const small = await campaign(250);
const large = await campaign(2500);
try {
  const figures = [];
  for (const [dir, runs] of [
    [small, 1000],
    [large, 10_000],
  ] as const) {
    const server = await serve(dir);
    // The first screen: verdict, per-condition table and the first rows (more than fit in it).
    const view = await timeTo(browser, server.url, '#runs tbody tr', 25);
    const all = await timeTo(browser, server.url, '.run-list[data-loaded]', 1);
    const report = await timeTo(
      browser,
      pathToFileURL(path.join(dir, 'report.html')).href,
      '#runs',
      1,
    );
    figures.push({ runs, view, all, report, peakKiB: await server.peakKiB() });
    await server.stop();
  }
  // 500 steps: 250 calls, a model step and a tool step each; against 5 calls (10 steps).
  const runDir = (n: number) =>
    path.join(small, 'runs', 'add-feature', 'with_skill', `run-${String(n).padStart(2, '0')}`);
  await session(runDir(1), 250);
  await session(runDir(2), 5);
  const server = await serve(small);
  const page = (n: number) => `${server.url}_view/run/add-feature/with_skill/${n}`;
  const long = await timeTo(browser, page(1), '.steps .step-tool', 250);
  const short = await timeTo(browser, page(2), '.steps .step-tool', 5);
  const readable = await readability(browser, page(1));
  const steps = JSON.parse(
    await (await fetch(`${server.url}_api/run/add-feature/with_skill/1`)).text(),
  ) as { trajectory: { steps: unknown[] } };
  await server.stop();
  for (const f of figures) {
    console.log(
      `${f.runs.toLocaleString('en')} runs: first screen ${s(f.view)} (report.html from file ${s(f.report)}, x${(f.view / f.report).toFixed(2)}), every row ${s(f.all)}; server peak RSS ${(f.peakKiB / 1024).toFixed(0)} MiB`,
    );
  }
  const [a, b] = figures;
  console.log(
    `10,000 vs 1,000 runs: first screen x${(b!.view / a!.view).toFixed(2)}, every row x${(b!.all / a!.all).toFixed(2)}, server peak RSS x${(b!.peakKiB / a!.peakKiB).toFixed(2)}`,
  );
  console.log(
    `trajectory of ${steps.trajectory.steps.length} steps: ${s(long)} to render (10 steps: ${s(short)}, x${(long / short).toFixed(2)})`,
  );
  console.log(
    `readable: ${readable.folded} of ${readable.tools} tool outputs (40 lines each) folded; the page is ${readable.screens.toFixed(0)} screens long, ${(readable.screens / readable.tools).toFixed(2)} a tool step (unfolded: ${readable.unfoldedScreens.toFixed(1)} screens for one output)`,
  );
  console.log(
    `goals: first screen at 1,000 runs under 2 s: ${a!.view < 2000 ? 'met' : 'NOT met'}; 500 steps under 1 s: ${long < 1000 ? 'met' : 'NOT met'}`,
  );
  await writeFile(
    path.join(os.tmpdir(), 'evalrig-bench-view.json'),
    `${JSON.stringify({ figures, long, short, readable }, null, 2)}\n`,
  );
} finally {
  await browser.close();
  await Promise.all([small, large].map((d) => rm(d, { recursive: true, force: true })));
}
