import { expect } from 'chai';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { writeArtifact, type EngineRecord, type RunRecord } from '../../../src/artifacts/index.js';
import { writeReport, type BenchmarkFile } from '../../../src/report/index.js';
import { runRecords } from '../../support/faults.js';
import { MIXED, writeCampaign } from './fixture.js';

const DOCKER: EngineRecord = {
  address: 'unix:///var/run/docker.sock',
  kind: 'docker',
  id: 'SZ75:GAS2',
  version: '20.10.24',
  rootless: false,
  limits_enforced: true,
};
const PODMAN: EngineRecord = {
  address: 'ssh://ci@builder',
  kind: 'podman',
  id: 'podman-0123456789abcdef01234567',
  version: '4.3.1',
  rootless: true,
  limits_enforced: true,
};

/** Gives every run.json of `dir` the engine `pick` says (rewritten, schema-checked). */
async function placeRuns(dir: string, pick: (r: RunRecord) => EngineRecord): Promise<void> {
  for (const { dir: run, record } of await runRecords(dir)) {
    await writeArtifact('run', path.join(run, 'run.json'), { ...record, engine: pick(record) });
  }
}

/**
 * The report splits a campaign's measures by the engine each run ran on
 * (run.json's engine), per condition, when the runs ran on several engines:
 * benchmark.json's by_engine and report.md's "Per engine".
 */
describe('report: measures split by engine', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'evalrig-report-engines-'));
    await writeCampaign(dir, MIXED);
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('runs on two engines: each condition by engine, the counts adding up to the condition', async () => {
    await placeRuns(dir, (r) => (r.run % 2 === 0 ? PODMAN : DOCKER));
    await writeReport(dir);
    const bench = JSON.parse(
      await readFile(path.join(dir, 'benchmark.json'), 'utf8'),
    ) as BenchmarkFile;
    const groups = bench.by_engine!;
    expect(groups.map((g) => [g.condition, g.engine, g.kind, g.runs])).to.deep.equal([
      ['with_skill', PODMAN.address, 'podman', 4],
      ['with_skill', DOCKER.address, 'docker', 6],
      ['without_skill', PODMAN.address, 'podman', 4],
      ['without_skill', DOCKER.address, 'docker', 6],
    ]);
    for (const c of bench.conditions) {
      const split = groups.filter((g) => g.condition === c.condition);
      expect(split.reduce((n, g) => n + g.runs, 0)).to.equal(c.runs);
      expect(split.reduce((n, g) => n + g.measured, 0)).to.equal(c.measured);
    }
    const md = await readFile(path.join(dir, 'report.md'), 'utf8');
    expect(md).to.contain('## Per engine');
    expect(md).to.match(/\| with_skill \| ssh:\/\/ci@builder \(podman\) \| 4 \|/u);
  });

  it('runs on one engine (or of versions that did not record it): no split', async () => {
    await placeRuns(dir, () => DOCKER);
    await writeReport(dir);
    const bench = JSON.parse(
      await readFile(path.join(dir, 'benchmark.json'), 'utf8'),
    ) as BenchmarkFile;
    expect(bench.by_engine).to.equal(undefined);
    expect(await readFile(path.join(dir, 'report.md'), 'utf8')).not.to.contain('## Per engine');
  });
});
