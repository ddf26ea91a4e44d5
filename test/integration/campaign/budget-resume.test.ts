/**
 * The budget is the campaign's, not the command's: what earlier commands in the folder spent
 * (the gateways' own call logs there: a run's, a replayed run's set aside, the judge's) counts
 * against `--max-cost`. A resume with the budget they spent plays nothing, says so in one line
 * and starts nothing; the start says what was spent before and what the budget leaves.
 */
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { priceTokens } from '../../../src/agents/index.js';
import { callLogs, runFiles, setAsideCallLogs } from '../../../src/campaign-folder/index.js';
import { spentBefore } from '../../../src/campaign/phases/spending.js';
import { openRunGateway } from '../../../src/gateway/index.js';
import { call } from '../../support/gateway.js';
import { evalrigRun, makeToyWorkspace, type ToyWorkspace } from '../../support/toy.js';

const MODEL = 'claude-sonnet-4-5';
const USAGE = { input_tokens: 200_000, output_tokens: 10_000 };

/** One model call of `MODEL` logged by a real run gateway at `logPath` (the stand-in upstream). */
async function spendOnce(logPath: string): Promise<void> {
  await mkdir(path.dirname(logPath), { recursive: true });
  const g = await openRunGateway({
    source: { script: { responses: [{ content: [{ text: 'Hello.' }], usage: USAGE }] } },
    logPath,
  });
  try {
    const body = { model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] };
    const answer = await call(g.socketPath, 'POST', '/v1/messages', JSON.stringify(body));
    expect(answer.status, answer.body).to.equal(200);
  } finally {
    await g.close();
  }
}

describe('campaign: the budget counts what earlier commands in the folder spent', function () {
  this.timeout(60_000);
  let ws: ToyWorkspace;
  const perCall = priceTokens(MODEL, { input: 200_000, output: 10_000, cacheRead: 0 })!;

  before(async () => {
    ws = await makeToyWorkspace({
      scripts: {},
      set: { evals: [{ id: 'hello', prompt: 'Say hello.' }] },
    });
    const runs = path.join(ws.outDir, 'runs', 'hello', 'default');
    // A finished run's calls, a replayed run's (set aside) and the judge's grading calls.
    await spendOnce(runFiles(path.join(runs, 'run-01')).modelCallsJsonl);
    await spendOnce(runFiles(path.join(runs, 'run-02')).modelCallsJsonl);
    await setAsideCallLogs(ws.outDir, path.join(runs, 'run-02'), 'hello/default/run-02');
    await spendOnce(runFiles(path.join(runs, 'run-01')).judgeCallsJsonl);
  });
  after(async () => {
    await ws.cleanup();
  });

  it('sums every call the gateways logged in the folder, a replayed run set aside included', async () => {
    const logs = (await callLogs(ws.outDir)).filter((l) => existsSync(l.file));
    expect(logs.map((l) => [l.who, path.relative(ws.outDir, l.file)])).to.deep.equal([
      ['agent', 'runs/hello/default/run-01/model-calls.jsonl'],
      ['judge', 'runs/hello/default/run-01/judge-calls.jsonl'],
      ['agent', 'replaced/hello/default/run-02/1/model-calls.jsonl'],
    ]);
    const spent = await spentBefore(ws.outDir);
    expect(spent.agent).to.be.closeTo(2 * perCall, 1e-9);
    expect(spent.judge).to.be.closeTo(perCall, 1e-9);
  });

  it('reads no log through a link: the count stops, naming the file', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'evalrig-spent-'));
    try {
      const log = runFiles(path.join(dir, 'runs', 'e', 'c', 'run-01')).modelCallsJsonl;
      await mkdir(path.dirname(log), { recursive: true });
      const elsewhere = path.join(dir, 'elsewhere.jsonl');
      await writeFile(elsewhere, '{"model":"m","tokens":{"input":1}}\n');
      await symlink(elsewhere, log);
      let error: Error | undefined;
      await spentBefore(dir).catch((e: Error) => (error = e));
      expect(error?.message).to.equal(
        `cannot count what this campaign spent before: ${log} is a link, not evalrig's file`,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a resume with the budget already spent plays nothing: one line, no engine, nothing written', async () => {
    const before = await readdir(ws.outDir);
    const r = await evalrigRun(ws, undefined, ['--max-cost', (3 * perCall).toFixed(6)]);
    expect(r.exitCode, r.stderr).to.equal(0);
    const usd = (3 * perCall).toFixed(2);
    expect(r.stderr).to.contain(
      `evalrig: spent before in this folder: ${usd} USD at list prices; the budget of ${(3 * perCall).toFixed(2)} USD leaves 0.00 USD\n`,
    );
    const lines = r.stderr.split('\n').filter((l) => l.startsWith('evalrig: nothing played'));
    expect(lines).to.deep.equal([
      `evalrig: nothing played: the budget of ${(3 * perCall).toFixed(6).replace(/0+$/u, '')} USD is spent (${usd} USD by earlier commands at list prices); give a larger --max-cost to go on`,
    ]);
    expect(r.stderr).not.to.contain('played,');
    // Nothing started: no conditions.json, no run folder, no work folder.
    expect(await readdir(ws.outDir)).to.deep.equal(before);
    expect(existsSync(path.join(ws.outDir, 'conditions.json'))).to.equal(false);
  });
});
