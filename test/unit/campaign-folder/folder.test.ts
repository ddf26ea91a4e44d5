import { expect } from 'chai';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { execFile } from 'node:child_process';
import os from 'node:os';
import { promisify } from 'node:util';
import path from 'node:path';
import type { RunRecord } from '../../../src/artifacts/index.js';
import {
  campaignFiles,
  comparisonFiles,
  digestStops,
  listComparisons,
  listRuns,
  problemOf,
  readRunPart,
  readConditions,
  readRun,
  readRuns,
  runFiles,
  runKey,
  runLayout,
  runLinks,
  runNumbers,
  stopPath,
  writeRun,
} from '../../../src/campaign-folder/index.js';
import { readBytes } from '../../../src/campaign-folder/json.js';
import { GOOD_RUN, MIXED, writeCampaign } from '../../integration/report/fixture.js';

const execFileAsync = promisify(execFile);

/**
 * The campaign folder module over a synthetic campaign written as the campaign writes one: its
 * layout, its listing order, and the one rule for missing and broken every reader keeps.
 */
describe('campaign folder: layout, listing, and reads under one rule', function () {
  let dir: string;
  const runDir = (evalId: string, condition: string, run: number): string =>
    runLayout(dir, runKey(evalId, condition, run)).dir;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'evalrig-folder-'));
    await writeCampaign(dir, { ...MIXED, runs: 2, plan: () => GOOD_RUN });
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('names every file in one place', () => {
    const top = campaignFiles('/o');
    expect(top).to.include({
      conditions: '/o/conditions.json',
      benchmark: '/o/benchmark.json',
      runs: '/o/runs',
      work: '/o/work',
    });
    const run = runLayout('/o', runKey('e', 'c', 3));
    expect(run).to.include({
      dir: '/o/runs/e/c/run-03',
      runJson: '/o/runs/e/c/run-03/run.json',
      gradingJson: '/o/runs/e/c/run-03/grading.json',
      envRoot: '/o/work/e/c/run-03',
      socketDir: '/o/work/e/c/run-03/sock',
    });
    expect(stopPath(2)).to.equal('stops/stop-02.json');
    expect(comparisonFiles('/o', ['a', 'b'], 'e', 1).comparisonJson).to.equal(
      '/o/comparisons/a.vs.b/e/run-01/comparison.json',
    );
  });

  it('lists runs by eval, condition and run number, and reads them verified', async () => {
    await mkdir(runDir('add-feature', 'with_skill', 10), { recursive: true });
    const listed: string[] = [];
    for await (const e of listRuns(dir)) listed.push(`${e.eval}/${e.condition}/${e.run}`);
    expect(listed.slice(0, 5)).to.deep.equal([
      'add-feature/with_skill/1',
      'add-feature/with_skill/2',
      'add-feature/with_skill/10',
      'add-feature/without_skill/1',
      'add-feature/without_skill/2',
    ]);
    expect(await runNumbers(dir, 'add-feature', 'with_skill')).to.deep.equal([1, 2, 10]);
    const statuses: string[] = [];
    for await (const { read } of readRuns(dir, 2)) statuses.push(read.status);
    expect(statuses.filter((s) => s === 'ok')).to.have.length(8);
    expect(statuses.filter((s) => s === 'missing')).to.have.length(1);
    const ok = await readRun(runDir('fix-bug', 'with_skill', 1));
    expect(ok.status).to.equal('ok');
    if (ok.status === 'ok') expect(ok.value.stops.map((s) => s.turn)).to.deep.equal([1, 2]);
  });

  it('a stop changed after run.json recorded its digest makes the run broken', async () => {
    const d = runDir('fix-bug', 'with_skill', 1);
    const files = runFiles(d);
    const record = JSON.parse(await readFile(files.runJson, 'utf8')) as RunRecord;
    await writeRun(d, { ...record, stops_sha256: await digestStops(d, record.stops) });
    expect((await readRun(d)).status).to.equal('ok');
    const stop = path.join(d, record.stops[0]!);
    await writeFile(stop, (await readFile(stop, 'utf8')).replace('"turn": 1', '"turn":  1'));
    const read = await readRun(d);
    expect(read.status).to.equal('broken');
    expect(problemOf(read)).to.equal(`${stop} is not the file the run wrote (its sha256 differs)`);
  });

  it('a run is broken when a stop is missing, not evalrig’s, a link, or not JSON', async () => {
    const d = runDir('fix-bug', 'with_skill', 1);
    const files = runFiles(d);
    const record = JSON.parse(await readFile(files.runJson, 'utf8')) as RunRecord;
    const stop = path.join(d, record.stops[0]!);
    const whole = await readFile(stop);
    const cases: Array<[() => Promise<void>, string]> = [
      [() => rm(stop), `${stop} is missing`],
      [() => writeFile(stop, '{'), `${stop} is not JSON`],
      [
        async () => {
          await rm(stop);
          await symlink('/etc/hostname', stop);
        },
        `${stop} is a link, not evalrig's file`,
      ],
      [
        () => writeRun(d, { ...record, stops: ['../../../../conditions.json'] }),
        `${files.runJson} names a stop that is not evalrig's: ../../../../conditions.json`,
      ],
    ];
    for (const [damage, problem] of cases) {
      await rm(stop, { force: true });
      await writeFile(stop, whole);
      await writeRun(d, record);
      expect((await readRun(d)).status).to.equal('ok');
      await damage();
      const read = await readRun(d);
      expect(read.status, problem).to.equal('broken');
      expect(problemOf(read)).to.contain(problem);
    }
  });

  it('conditions.json: missing, then broken with the file and JSON pointer named', async () => {
    const file = campaignFiles(dir).conditions;
    expect((await readConditions(dir)).status).to.equal('ok');
    await writeFile(file, '{"schema": "evalrig/conditions@1"}');
    const broken = await readConditions(dir);
    expect(broken.status).to.equal('broken');
    expect(problemOf(broken)).to.match(
      new RegExp(`^${file.replaceAll('/', '\\/')} does not match the conditions schema at /`, 'u'),
    );
    await rm(file);
    expect(await readConditions(dir)).to.deep.equal({ status: 'missing', file });
  });

  it('links the files of a run that exist, in order, and lists comparisons by pair', async () => {
    const d = runDir('fix-bug', 'with_skill', 1);
    const record = JSON.parse(await readFile(runFiles(d).runJson, 'utf8')) as RunRecord;
    const links = await runLinks(d, [...record.stops, '../evil.json']);
    expect(links.map((l) => l.path)).to.deep.equal([
      'run.json',
      'stops/stop-01.json',
      'stops/stop-02.json',
      'turns/turn-01.stdout.txt',
      'turns/turn-02.stdout.txt',
      'diff.patch',
      'calls.jsonl',
    ]);
    const c = comparisonFiles(dir, ['a', 'b'], 'fix-bug', 1);
    await mkdir(c.dir, { recursive: true });
    await mkdir(path.join(campaignFiles(dir).comparisons, 'not-a-pair'), { recursive: true });
    expect(await listComparisons(dir)).to.deep.equal([
      { conditions: ['a', 'b'], files: [c.comparisonJson] },
    ]);
  });

  it('reads small files and big ones alike: whole, a FIFO refused without blocking, a part cut', async () => {
    const at = await mkdtemp(path.join(os.tmpdir(), 'evalrig-folder-bytes-'));
    try {
      const small = path.join(at, 'small.json');
      const big = path.join(at, 'big.json');
      await writeFile(small, '{"a":1}');
      await writeFile(big, `"${'x'.repeat(300 * 1024)}"`);
      expect((await readBytes(small)) as unknown).to.deep.include({
        status: 'ok',
        value: Buffer.from('{"a":1}'),
      });
      const bigRead = await readBytes(big);
      expect(bigRead.status === 'ok' && bigRead.value.length).to.equal(300 * 1024 + 2);
      expect(await readBytes(small, 3)).to.deep.include({
        status: 'broken',
        problem: `${small} is 7 bytes: too big to be evalrig's`,
      });
      const fifo = path.join(at, 'fifo');
      await execFileAsync('mkfifo', [fifo]);
      expect(await readBytes(fifo)).to.deep.include({
        status: 'broken',
        problem: `${fifo} is not a file`,
      });
      expect(await readRunPart(fifo, 10, 'head')).to.equal(null);
      expect(await readRunPart(small, 3, 'tail')).to.equal(
        '[evalrig: 4 earlier bytes not shown]\n:1}',
      );
      expect(await readRunPart(big, 300 * 1024 + 2, 'head')).to.have.length(300 * 1024 + 2);
      expect(await readRunPart(path.join(at, 'none'), 10, 'head')).to.equal(null);
    } finally {
      await rm(at, { recursive: true, force: true });
    }
  });
});
