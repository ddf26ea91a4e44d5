/**
 * `evalrig export` over a campaign the real Codex binary played against the model stand-in
 * (the adapters' pull-request campaign: a nominal run over two turns, a refused one): its runs,
 * model calls and stops read back with Python's csv module and a JSON parser, and held
 * against benchmark.json and the runs' own records.
 */
import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { CODEX_VERIFIED_VERSION } from '../../src/agents/index.js';
import type { BenchmarkFile } from '../../src/report/index.js';
import { adapterCampaign } from '../support/adapter-campaign.js';
import { readJson, readJsonLines } from '../support/campaign.js';
import {
  evalrigExport,
  expectRunsMatchBenchmark,
  jsonlRows,
  pythonCsvRows,
  type Parsed,
} from '../support/export-tables.js';
import type { ModelCall } from '../../src/gateway/index.js';

const VERSION = process.env.EVALRIG_CODEX_VERSION ?? CODEX_VERIFIED_VERSION;

describe('e2e: a played campaign exported, read back, and held against benchmark.json', function () {
  this.timeout(600_000);
  const campaign = adapterCampaign({
    agent: { type: 'codex', version: VERSION },
    shell: { name: 'exec_command', field: 'cmd' },
  });
  let bench: BenchmarkFile;

  before(async () => {
    // The refused run fails by construction: the campaign says so with exit 1.
    expect(campaign.run.exitCode, campaign.run.stderr).to.equal(1);
    bench = await readJson<BenchmarkFile>(path.join(campaign.ws.outDir, 'benchmark.json'));
  });

  const exported = async (args: string[]): Promise<{ csv: Parsed[]; jsonl: Parsed[] }> => {
    const csv = await evalrigExport([campaign.ws.outDir, '--format', 'csv', ...args]);
    expect(csv.exitCode, csv.stderr).to.equal(0);
    const jsonl = await evalrigExport([campaign.ws.outDir, '--format', 'jsonl', ...args]);
    expect(jsonl.exitCode, jsonl.stderr).to.equal(0);
    return { csv: await pythonCsvRows(csv.stdout), jsonl: jsonlRows(jsonl.stdout) };
  };

  it('gives one row per run, as CSV and JSON lines alike, its figures benchmark.json’s', async () => {
    const { csv, jsonl } = await exported([]);
    expect(csv).to.deep.equal(jsonl);
    expect(csv.map((r) => [r.eval, r.status, r.agent, r.agent_version])).to.deep.equal([
      ['nominal', 'completed', 'codex', VERSION],
      ['refused', 'failed', 'codex', VERSION],
    ]);
    expectRunsMatchBenchmark(csv, bench);
    const nominal = csv[0]!;
    expect(nominal).to.include({ tokens_input: 13400, tokens_output: 151, 'check:tests': true });
    expect(nominal.fingerprint).to.match(/^[0-9a-f]{64}$/u);
  });

  it("gives one row per model call the gateway logged, in its turn, summing to the run's figures", async () => {
    const { csv, jsonl } = await exported(['--calls']);
    expect(csv).to.deep.equal(jsonl);
    const runs = (await exported([])).jsonl;
    for (const id of ['nominal', 'refused']) {
      const logged = await readJsonLines<ModelCall>(
        path.join(campaign.runDir(id), 'model-calls.jsonl'),
      );
      const mine = csv.filter((r) => r.eval === id);
      expect(mine.map((r) => r.seq)).to.deep.equal(logged.map((c) => c.seq));
      expect(mine.map((r) => r.outcome)).to.deep.equal(logged.map((c) => c.outcome));
      const run = runs.find((r) => r.eval === id)!;
      const sum = (col: string) => mine.reduce((n, r) => n + ((r[col] as number | null) ?? 0), 0);
      expect(sum('tokens_input')).to.equal(run.tokens_input);
      expect(sum('tokens_output')).to.equal(run.tokens_output);
      expect(sum('tokens_cache_read')).to.equal(run.tokens_cache_read);
      expect(sum('cost_usd')).to.be.closeTo(run.cost_usd as number, 1e-6);
    }
    const nominal = csv.filter((r) => r.eval === 'nominal');
    expect(nominal.map((r) => r.turn)).to.deep.equal([1, 1, 2, 2]);
    expect(nominal.map((r) => r.tool_names)).to.deep.equal([
      'exec_command',
      null,
      'exec_command',
      null,
    ]);
    expect(csv.find((r) => r.eval === 'refused')).to.include({ turn: 1, status: 400 });
  });

  it('gives one row per stop, as its stop file says', async () => {
    const { csv, jsonl } = await exported(['--stops']);
    expect(csv).to.deep.equal(jsonl);
    const [planning, execution] = await campaign.stopsOf('nominal');
    const nominal = csv.filter((r) => r.eval === 'nominal');
    expect(nominal.map((r) => [r.turn, r.phase, r.kind, r.pr_draft])).to.deep.equal([
      [1, planning!.phase, 'awaiting-approval', true],
      [2, execution!.phase, 'conformant', true],
    ]);
    expect(nominal[0]!.final_message).to.equal(planning!.agent!.final_message);
    expect(nominal[1]!.tokens_input).to.equal(execution!.agent!.tokens.input);
    expect(csv.filter((r) => r.eval === 'refused')).to.have.length(
      (await campaign.stopsOf('refused')).length,
    );
    expect(await readFile(path.join(campaign.ws.outDir, 'benchmark.json'), 'utf8')).to.contain(
      '"runs"',
    );
  });
});
