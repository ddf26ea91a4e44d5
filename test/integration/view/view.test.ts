/**
 * `evalrig run --view` on a real command-agent campaign whose agent writes markup everywhere it
 * can (file names, messages, a pull request's title and body): the viewer in a real headless
 * Chromium, live while the campaign plays, then its pages, its review notes and its refusals.
 */
import { expect } from 'chai';
import { execa, type ResultPromise } from 'execa';
import {
  cp,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rename,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { request } from 'node:http';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { assertReview } from '../../../src/view/index.js';
import { requireDocker } from '../../support/docker.js';
import { makeToyWorkspace, type ToyWorkspace } from '../../support/toy.js';
import { launchChromium, shownSteps, watchedPage } from '../../support/viewer.js';

const FILE = '<img src=x onerror=window.__pwned=1>.txt';
const TITLE = '<img src=x onerror=window.__pwned=3>';
const SAID_STAGED = 'The draft <img src=x onerror=window.__pwned=5> awaits you.';
const SAID_DONE = 'Done <script>window.__pwned=6</script>';

const SCRIPT = {
  turns: [
    {
      actions: [
        { run: 'git checkout -q -b feature/x' },
        // A TTY's colours in the output: shown without their escapes, never as ESC glyphs.
        { run: "printf '\\033[31mRED-ALERT\\033[0m\\n'" },
        { write: FILE, content: '<script>window.__pwned=2</script>\n' },
        { run: 'git add -A && git commit -qm "<b>markup</b>" && git push -q -u origin HEAD' },
        {
          run: `gh pr create --draft --title '${TITLE}' --body-file -`,
          stdin: '<script>window.__pwned=4</script>\n',
        },
        {
          if_exists: '.marker',
          then: [{ say: SAID_STAGED }],
          else: [{ say: 'Opened <i>it</i>.' }],
        },
        { stop: 'awaiting-approval' },
      ],
    },
    {
      actions: [
        { append: 'math.js', content: 'exports.multiply = (a, b) => a * b;\n' },
        { run: 'git add -A && git commit -qm multiply && git push -q' },
        { say: SAID_DONE },
        { stop: 'conformant' },
      ],
    },
  ],
};

/** A raw request, its path sent exactly as given (no client normalizes it). */
function raw(
  port: number,
  options: { path: string; method?: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: options.headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** The headers of a GET that keeps its answer open (an event stream): read, then closed. */
function rawHead(port: number, urlPath: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: urlPath }, (res) => {
      resolve(res.headers);
      res.destroy();
    });
    req.on('error', reject);
    req.end();
  });
}

/** The local addresses of the listening TCP sockets on `port` (from /proc/net/tcp and tcp6). */
async function listeningAddresses(port: number): Promise<string[]> {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const found: string[] = [];
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const lines = (await readFile(file, 'utf8').catch(() => '')).split('\n').slice(1);
    for (const line of lines) {
      const [, local, , state] = line.trim().split(/\s+/u);
      if (state === '0A' && local?.endsWith(`:${hexPort}`)) found.push(local.split(':')[0]!);
    }
  }
  return found;
}

describe('view: evalrig run --view on a command-agent campaign, in a real headless Chromium', function () {
  this.timeout(300_000);
  let ws: ToyWorkspace;
  let cli: ResultPromise;
  let stderr = '';
  let url: string;
  let port: number;
  let browser: Browser;
  let overview: { page: Page; errors: string[] };
  let rowsAtStart = -1;
  before(requireDocker);
  before(async () => {
    ws = await makeToyWorkspace({
      scripts: { hostile: SCRIPT },
      files: { 'marker/README': 'staged\n' },
      set: {
        conditions: { plain: {}, staged: { stage: { marker: '.marker' } } },
        baseline_condition: 'plain',
        runs: 1,
        // Every hand-over message says where the work is: the staged session's first one does.
        message_checks: [{ name: 'reports', stops: 'hand_over', rule: { matches: 'draft|Done' } }],
        evals: [
          {
            id: 'hostile',
            prompt: 'Open a draft <b>now</b>.',
            turns: [{ message: 'Go on <i>please</i>.', phase: 'execution' }],
          },
        ],
      },
    });
    cli = execa(
      'node',
      ['--import', 'tsx', 'src/cli/main.ts', 'run', ws.evalSetFile, '--out', ws.outDir, '--view'],
      {
        reject: false,
      },
    );
    cli.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    const deadline = Date.now() + 60_000;
    while (!/at (http:\/\/127\.0\.0\.1:(\d+)\/)/u.test(stderr)) {
      if (Date.now() > deadline || cli.exitCode !== null) throw new Error(`no view URL: ${stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const m = /at (http:\/\/127\.0\.0\.1:(\d+)\/)/u.exec(stderr)!;
    url = m[1]!;
    port = Number(m[2]);
    browser = await launchChromium();
    overview = await watchedPage(browser);
    await overview.page.goto(url);
    await overview.page.waitForSelector('.run-list[data-loaded]');
    rowsAtStart = await overview.page.locator('#runs tbody tr').count();
    await overview.page.evaluate(() => ((window as unknown as { __mark: number }).__mark = 1));
  });
  after(async () => {
    await browser?.close();
    cli?.kill('SIGINT');
    await cli;
    await ws?.cleanup();
  });

  it('says where it serves and that it is loopback only; it listens on 127.0.0.1 alone', async () => {
    expect(stderr).to.match(
      /evalrig view: .* at http:\/\/127\.0\.0\.1:\d+\/ \(bound to 127\.0\.0\.1, loopback only/u,
    );
    expect(await listeningAddresses(port)).to.deep.equal(['0100007F']);
  });

  it('a run that finishes while the page is open appears in it without a reload', async () => {
    expect(rowsAtStart).to.be.lessThan(2);
    const page = overview.page;
    await page.waitForFunction(
      () => document.querySelectorAll('#runs tbody tr').length === 2,
      null,
      {
        timeout: 240_000,
      },
    );
    expect(await page.evaluate(() => (window as unknown as { __mark?: number }).__mark)).to.equal(
      1,
    );
    const keys = await page
      .locator('#runs tbody tr')
      .evaluateAll((trs) => trs.map((tr) => tr.querySelector('a')!.textContent));
    expect(keys).to.deep.equal(['hostile / plain / run-01', 'hostile / staged / run-01']);
    const deadline = Date.now() + 60_000;
    while (!stderr.includes('the campaign is done') && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    expect(stderr).to.include('the campaign is done');
    expect(overview.errors).to.deep.equal([]);
  });

  it('redraws the verdict and the rates when benchmark.json is written, without a reload', async () => {
    const page = overview.page;
    // Opened before the campaign was reported on: no verdict then; the one written at its end.
    await page.waitForFunction(
      () => document.querySelector('#verdict h2')?.textContent === 'Verdict',
      null,
      { timeout: 60_000 },
    );
    expect(await page.locator('#live').textContent()).to.equal(
      '· live: benchmark.json updated, verdict redrawn',
    );
    expect(
      await page.locator('#conditions tr[data-measure="pr_draft_at_hand_over"]').count(),
    ).to.equal(1);
    // Measures by their readable names, as the report names them.
    const label = page.locator('#conditions tr[data-measure="pr_draft_at_hand_over"] th');
    expect(await label.textContent()).to.equal('PR draft at hand over');
    expect(await page.locator('#verdict').count()).to.equal(1);
    expect(await page.evaluate(() => (window as unknown as { __mark?: number }).__mark)).to.equal(
      1,
    );
    expect(overview.errors).to.deep.equal([]);
  });

  it("shows every step of the command agent's session in order: its output, its gh calls, each stop", async () => {
    const { page, errors } = await watchedPage(browser);
    await page.goto(`${url}_view/run/hostile/staged/1`);
    const steps = await shownSteps(page);
    expect(steps.map((s) => s.kind)).to.deep.equal([
      'output',
      'output',
      'gh',
      'stop',
      'output',
      'output',
      'stop',
    ]);
    expect(steps[0]!.text).to.contain(SAID_STAGED);
    expect(steps.map((s) => s.text).join(''))
      .to.contain('RED-ALERT')
      .and.not.contain('\u001b');
    expect(steps[1]!.text).to.contain(`write ${FILE}`);
    expect(steps[2]!.text).to.contain(`gh pr create --draft --title ${TITLE} --body-file -`);
    expect(steps[3]!.text)
      .to.match(/turn 1 · planning/u)
      .and.to.contain('awaiting-approval');
    expect(steps[4]!.text).to.contain(SAID_DONE);
    expect(steps[6]!.text)
      .to.match(/turn 2 · execution/u)
      .and.to.contain('conformant');
    expect(errors).to.deep.equal([]);
    await page.close();
  });

  it('renders agent-controlled text (messages, file names, a PR title, tool output) as text, never markup', async () => {
    const { page, errors } = await watchedPage(browser);
    await page.goto(`${url}_view/run/hostile/staged/1`);
    await shownSteps(page);
    await page
      .locator('details.patch')
      .evaluateAll((ds) => ds.forEach((d) => ((d as HTMLDetailsElement).open = true)));
    const text = (await page.locator('main').textContent()) ?? '';
    for (const s of [FILE, TITLE, SAID_STAGED, SAID_DONE, '<script>window.__pwned=2</script>'])
      expect(text).to.contain(s);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).to.equal(
      undefined,
    );
    expect(await page.locator('main img, main script, main i').count()).to.equal(0);
    const bold = await page.locator('main b').allTextContents();
    expect(bold).to.not.include('markup').and.not.include('now');
    expect(errors).to.deep.equal([]);
    await page.close();
  });

  it("embeds each run's steps in a small campaign's report.html, folded, as text", async () => {
    const { page, errors } = await watchedPage(browser);
    await page.goto(`${url}report.html`);
    const runs = page.locator('#runs details.run');
    expect(await runs.locator('details.embedded-steps').count()).to.equal(await runs.count());
    const staged = runs.filter({ hasText: 'hostile / staged / run-01' });
    const steps = staged.locator('details.embedded-steps li.step');
    const kinds = await steps.evaluateAll((els) => els.map((e) => e.getAttribute('data-kind')));
    expect(kinds).to.include.members(['output', 'gh', 'stop']);
    expect(kinds.filter((k) => k === 'stop')).to.have.length(2);
    const texts = (await steps.allTextContents()).join('\n');
    expect(texts).to.contain(TITLE).and.contain(SAID_DONE);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).to.equal(
      undefined,
    );
    expect(errors).to.deep.equal([]);
    await page.close();
  });

  it("leads from report.html's per-condition table to the runs a filter selects", async () => {
    const { page, errors } = await watchedPage(browser);
    await page.goto(`${url}report.html`);
    await page
      .locator('#conditions tr.view-runs td[data-condition="staged"] a[data-filter="all"]')
      .click();
    await page.waitForURL(/\/_view\/runs\/staged\/all$/u);
    await page.waitForSelector('.run-list[data-loaded]');
    expect(await page.locator('#runs tbody tr a.run-link').allTextContents()).to.deep.equal([
      'hostile / staged / run-01',
    ]);
    await page.goto(`${url}report.html`);
    await page
      .locator('#conditions tr.view-runs td[data-condition="staged"] a[data-filter="tampered"]')
      .click();
    await page.waitForURL(/\/_view\/runs\/staged\/tampered$/u);
    await page.waitForSelector('.run-list[data-loaded]');
    expect(await page.locator('#runs tbody tr').count()).to.equal(0);
    expect(errors).to.deep.equal([]);
    await page.close();
  });

  it('leads from a verdict line (of the viewer and of report.html) to its runs, and shows them side by side with their stops aligned', async () => {
    const { page, errors } = await watchedPage(browser);
    await page.goto(`${url}report.html`);
    const reportRows = await page
      .locator('#verdict figure.forest g.forest-row')
      .evaluateAll((gs) => gs.map((g) => g.getAttribute('data-key')));
    await page
      .locator('#verdict li.verdict[data-measure="message_checks.reports"] a.runs-behind')
      .click();
    await page.waitForURL(/\/_view\/line\/staged\/plain\/message_checks\.reports$/u);
    await page.waitForSelector('#line-runs tr.line-run');
    await page.goto(url);
    // The same forest plot as report.html's, drawn by the DOM: real SVG that takes up room.
    await page.waitForSelector('#verdict figure.forest g.forest-row');
    const viewRows = await page
      .locator('#verdict figure.forest g.forest-row')
      .evaluateAll((gs) => gs.map((g) => g.getAttribute('data-key')));
    expect(viewRows).to.include('staged/plain/message_checks.reports');
    expect(viewRows).to.deep.equal(reportRows);
    const drawn = await page.locator('#verdict figure.forest svg').boundingBox();
    expect(drawn!.width).to.be.greaterThan(300);
    const line = page.locator('#verdict li.verdict[data-measure="message_checks.reports"]');
    expect(await line.locator('.text').textContent()).to.match(
      /^staged passes message check reports in 100% vs 0% of runs/u,
    );
    await line.locator('a.runs-behind').click();
    await page.waitForSelector('#line-runs tr.line-run');
    const rows = await page.locator('#line-runs tr.line-run').allTextContents();
    expect(rows).to.have.length(1);
    expect(rows[0]).to.match(/^hostile \/ run-01falsetrueside by side$/u);
    await page.locator('#line-runs tr.line-run a.pair-link').first().click();
    await page.waitForSelector('#pair .stop-cell');
    for (const turn of [1, 2]) {
      const cells = page.locator(`#pair .stop-cell[data-turn="${turn}"] section.stop`);
      expect(await cells.count()).to.equal(2);
      const [a, b] = [await cells.nth(0).boundingBox(), await cells.nth(1).boundingBox()];
      expect(a!.y).to.equal(b!.y);
      expect(a!.x).to.be.lessThan(b!.x);
    }
    expect(await page.locator('#pair details.patch').count()).to.equal(4);
    expect(errors).to.deep.equal([]);
    await page.close();
  });

  it('keeps a review note in the campaign folder, apart from the grading, and shows it again', async () => {
    const { page, errors } = await watchedPage(browser);
    await page.goto(`${url}_view/run/hostile/staged/1`);
    const note = 'The judge missed <b>this</b>: the title is markup.';
    await page.locator('form.review input[value="disagree"]').check();
    await page.locator('form.review textarea').fill(note);
    await page.locator('form.review button[type="submit"]').click();
    await page.waitForFunction(() =>
      document.querySelector('form.review .status')?.textContent?.startsWith('saved'),
    );
    const file = path.join(ws.outDir, 'reviews', 'hostile', 'staged', 'run-01.json');
    const stored = JSON.parse(await readFile(file, 'utf8')) as unknown;
    assertReview(stored, file);
    expect(stored).to.include({
      verdict: 'disagree',
      note,
      eval: 'hostile',
      condition: 'staged',
      run: 1,
    });
    await page.reload();
    await page.waitForSelector('form.review');
    expect(await page.locator('form.review input[value="disagree"]').isChecked()).to.equal(true);
    expect(await page.locator('form.review textarea').inputValue()).to.equal(note);
    await page.goto(`${url}_view/runs?filter=reviewed`);
    await page.waitForSelector('.run-list[data-loaded]');
    expect(await page.locator('#runs tbody tr').allTextContents()).to.have.length(1);
    expect(await page.locator('#runs tbody tr .review').textContent()).to.contain('disagrees');
    // The report shows it too, apart from the grading.
    const report = await execa('node', ['--import', 'tsx', 'src/cli/main.ts', 'report', ws.outDir]);
    expect(report.exitCode).to.equal(0);
    await page.goto(`${url}report.html`);
    const shown = page.locator('#reviews tr.review[data-condition="staged"]');
    expect(await shown.locator('.note-text').textContent()).to.equal(note);
    expect(await shown.textContent()).to.contain('disagrees with the judge');
    expect(errors).to.deep.equal([]);
    await page.close();
  });

  it('moves between runs with the keyboard', async () => {
    const { page } = await watchedPage(browser);
    await page.goto(url);
    await page.waitForSelector('#runs tbody tr.sel');
    await page.keyboard.press('j');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/_view\/run\/hostile\/staged\/1$/u);
    await page.waitForSelector('.nav[data-ready]');
    await page.keyboard.press('p');
    await page.waitForURL(/\/_view\/run\/hostile\/plain\/1$/u);
    await page.waitForSelector('.nav[data-ready]');
    await page.keyboard.press('n');
    await page.waitForURL(/\/_view\/run\/hostile\/staged\/1$/u);
    await page.close();
  });

  it('sends a Content-Security-Policy that forbids inline scripts and anything not from itself', async () => {
    for (const p of [
      '/',
      '/_view/run/hostile/staged/1',
      '/_api/campaign',
      '/runs/hostile/staged/run-01/run.json',
    ]) {
      const r = await raw(port, { path: p });
      expect(r.status, p).to.equal(200);
      const csp = String(r.headers['content-security-policy']);
      expect(csp, p).to.include("default-src 'none'").and.include("script-src 'self'");
      expect(csp, p).to.not.include('unsafe-inline');
      expect(r.headers['x-content-type-options']).to.equal('nosniff');
    }
    const shell = await raw(port, { path: '/' });
    expect(shell.body).to.not.match(/<script(?![^>]*\ssrc=)[^>]*>/u);
    const report = await raw(port, { path: '/report.html' });
    expect(report.status).to.equal(200);
    expect(String(report.headers['content-security-policy'])).to.include("script-src 'none'");
    // A run's files are text, whatever they hold.
    const patch = await raw(port, { path: '/runs/hostile/staged/run-01/diff.patch' });
    expect(patch.headers['content-type']).to.equal('text/plain; charset=utf-8');
  });

  it('refuses paths outside the campaign folder, other hosts, and writes other than a valid review', async () => {
    await symlink('/etc', path.join(ws.outDir, 'runs', 'hostile', 'out-link'));
    for (const p of [
      '/../evals/evals.json',
      '/%2e%2e/evals/evals.json',
      '/runs/%2E%2E/%2E%2E/%2E%2E/etc/passwd',
      '/runs/..%2f..%2f..%2fetc%2fpasswd',
      '/runs/hostile/out-link/passwd',
      '/work/hostile',
      '/.evalrig.lock',
    ]) {
      expect((await raw(port, { path: p })).status, p).to.equal(403);
    }
    expect((await raw(port, { path: '/', headers: { Host: 'evil.example' } })).status).to.equal(
      421,
    );
    expect((await raw(port, { path: '/report.html', method: 'POST' })).status).to.equal(405);
    const review = '/_api/review/hostile/plain/1';
    const json = { 'Content-Type': 'application/json', Origin: url.slice(0, -1) };
    const body = JSON.stringify({ verdict: 'agree', note: 'ok' });
    expect(
      (
        await raw(port, {
          path: review,
          method: 'POST',
          headers: { ...json, Origin: 'http://evil.example' },
          body,
        })
      ).status,
    ).to.equal(403);
    expect(
      (
        await raw(port, {
          path: review,
          method: 'POST',
          headers: json,
          body: JSON.stringify({ verdict: 'maybe', note: '' }),
        })
      ).status,
    ).to.equal(400);
    expect(
      (
        await raw(port, {
          path: review,
          method: 'POST',
          headers: json,
          body: JSON.stringify({ verdict: null, note: 'x'.repeat(20_000) }),
        })
      ).status,
    ).to.equal(413);
    expect(
      (
        await raw(port, {
          path: '/_api/review/hostile/plain/9',
          method: 'POST',
          headers: json,
          body,
        })
      ).status,
    ).to.equal(404);
    expect(
      (await raw(port, { path: review, method: 'POST', headers: json, body })).status,
    ).to.equal(200);
  });

  it('refuses a folder link planted on the way, on read and on write, and sends its headers on the event stream too', async () => {
    const outside = await mkdtemp(path.join(tmpdir(), 'evalrig-outside-'));
    const run = path.join(ws.outDir, 'runs', 'hostile', 'staged', 'run-01');
    const turns = path.join(run, 'turns');
    const reviews = path.join(ws.outDir, 'reviews', 'hostile');
    try {
      // A run folder's turns/ pointing out, with a file of the host's behind it.
      await cp(turns, path.join(outside, 'turns'), { recursive: true });
      await writeFile(path.join(outside, 'turns', 'secret.txt'), 'host secret');
      await rename(turns, `${turns}.kept`);
      await symlink(path.join(outside, 'turns'), turns);
      const read = await raw(port, { path: '/_api/run/hostile/staged/1' });
      expect(read.status).to.equal(404);
      expect(read.body).to.contain('symbolic link');
      // reviews/<eval> pointing out: a review sent from the viewer's own page is refused.
      await mkdir(path.join(outside, 'reviews'), { recursive: true });
      await rm(reviews, { recursive: true, force: true });
      await mkdir(path.dirname(reviews), { recursive: true });
      await symlink(path.join(outside, 'reviews'), reviews);
      const headers = { 'Content-Type': 'application/json', Origin: url.slice(0, -1) };
      const body = JSON.stringify({ verdict: 'agree', note: 'planted' });
      const write = await raw(port, {
        path: '/_api/review/hostile/plain/1',
        method: 'POST',
        headers,
        body,
      });
      expect(write.status).to.equal(404);
      expect(await readdir(path.join(outside, 'reviews'))).to.deep.equal([]);
      const events = await rawHead(port, '/_api/events');
      expect(String(events['content-security-policy'])).to.include("default-src 'none'");
      expect(events['x-content-type-options']).to.equal('nosniff');
    } finally {
      await rm(turns, { force: true });
      await rename(`${turns}.kept`, turns).catch(() => undefined);
      await rm(reviews, { force: true });
      await rm(outside, { recursive: true, force: true });
    }
  });
});
