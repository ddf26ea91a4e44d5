import { expect } from 'chai';
import { mkdir, mkdtemp, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { GradingFile } from '../../../src/artifacts/index.js';
import {
  copySourceRun,
  readRun,
  readSourceRun,
  runFiles,
  writeGrading,
} from '../../../src/campaign-folder/index.js';
import { GOOD_RUN, MIXED, writeCampaign } from '../../integration/report/fixture.js';

const KEY = 'add-feature/with_skill/run-01';

const GRADING: GradingFile = {
  schema: 'evalrig/grading@1',
  campaign: 'synthetic',
  eval: 'add-feature',
  condition: 'with_skill',
  run: 1,
  status: 'graded',
  judge: { model: 'judge', source: 'script', script_sha256: '1'.repeat(64) },
  rubric: { version: 'grading-rubric@1', sha256: '2'.repeat(64) },
  inputs_sha256: '3'.repeat(64),
  cache_key: '4'.repeat(64),
  expectations: [{ expectation: 'The PR is a draft.', passed: true, evidence: 'draft' }],
  expectations_passed: 1,
  all_passed: true,
  calls: [],
  graded_at: '2025-03-01T10:00:00.000Z',
};

/**
 * Another campaign's run read to be copied: verified as every reader verifies a run, every
 * folder on the way a real folder, every file a regular one, and the copy read back whole.
 */
describe('campaign folder: a run of another campaign, read and copied', function () {
  let work: string;
  let source: string;
  const sourceDir = () => path.join(source, 'runs', ...KEY.split('/'));
  const secret = () => path.join(work, 'secret.txt');

  beforeEach(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), 'evalrig-reuse-'));
    source = path.join(work, 'first');
    await writeCampaign(source, { ...MIXED, runs: 2, plan: () => GOOD_RUN });
    await writeFile(secret(), 'the host secret\n');
  });
  afterEach(() => rm(work, { recursive: true, force: true }));

  it('reads a finished run with the files a copy takes, and its grading', async () => {
    await writeGrading(sourceDir(), GRADING);
    const read = await readSourceRun(source, KEY);
    expect(read.status).to.equal('ok');
    if (read.status !== 'ok') return;
    expect(read.value.stored.record.condition).to.equal('with_skill');
    expect(read.value.files).to.deep.equal([
      'calls.jsonl',
      'diff.patch',
      'stops/stop-01.json',
      'stops/stop-02.json',
      'turns/turn-01.stdout.txt',
      'turns/turn-02.stdout.txt',
    ]);
    expect(read.value.grading).to.deep.equal(GRADING);
  });

  it('says missing for a run the folder does not have', async () => {
    const read = await readSourceRun(source, 'add-feature/with_skill/run-09');
    expect(read.status).to.equal('missing');
  });

  it('follows no link on the way to a run: a linked folder is broken', async () => {
    const moved = path.join(work, 'elsewhere');
    await rename(path.join(source, 'runs', 'add-feature'), moved);
    await symlink(moved, path.join(source, 'runs', 'add-feature'));
    const read = await readSourceRun(source, KEY);
    expect(read).to.deep.include({ status: 'broken' });
    expect((read as { problem: string }).problem).to.equal(
      `${path.join(source, 'runs', 'add-feature')} is not a folder (a link is not followed)`,
    );
  });

  for (const file of [
    'diff.patch',
    'calls.jsonl',
    'turns/turn-01.stdout.txt',
    'stops/stop-01.patch',
  ]) {
    it(`refuses a run whose ${file} is a planted link, and copies nothing of what it names`, async () => {
      const planted = path.join(sourceDir(), file);
      await rm(planted, { force: true });
      await symlink(secret(), planted);
      const read = await readSourceRun(source, KEY);
      expect(read).to.deep.include({
        status: 'broken',
        problem: `${planted} is not a regular file (a link is not followed)`,
      });
    });
  }

  it('refuses a run whose turns folder is a link', async () => {
    const turns = runFiles(sourceDir()).turnsDir;
    await rm(turns, { recursive: true });
    await mkdir(path.join(work, 'turns'));
    await symlink(path.join(work, 'turns'), turns);
    expect(await readSourceRun(source, KEY)).to.deep.include({
      status: 'broken',
      problem: `${turns} is not a folder (a link is not followed)`,
    });
  });

  it('leaves out a grading.json that is a link (the copy is graded again)', async () => {
    await symlink(secret(), runFiles(sourceDir()).gradingJson);
    const read = await readSourceRun(source, KEY);
    expect(read.status).to.equal('ok');
    expect((read as { value: { grading?: unknown } }).value.grading).to.equal(undefined);
  });

  it('copies the run with its new record, and its grading only when asked', async () => {
    await writeGrading(sourceDir(), GRADING);
    const read = await readSourceRun(source, KEY);
    if (read.status !== 'ok') throw new Error('unreadable');
    const target = path.join(work, 'second', 'runs', ...KEY.split('/'));
    const record = { ...read.value.stored.record, campaign: 'second' };
    const copied = await copySourceRun(read.value, target, record, false);
    expect(copied.status).to.equal('ok');
    expect((await readRun(target)).status).to.equal('ok');
    const json = JSON.parse(await readFile(runFiles(target).runJson, 'utf8')) as {
      campaign: string;
    };
    expect(json.campaign).to.equal('second');
    for (const rel of read.value.files)
      expect(await readFile(path.join(target, rel), 'utf8')).to.equal(
        await readFile(path.join(sourceDir(), rel), 'utf8'),
      );
    const grading = await readFile(runFiles(target).gradingJson, 'utf8').catch(() => null);
    expect(grading, 'no grading copied').to.equal(null);
    await copySourceRun(read.value, target, record, true);
    expect(JSON.parse(await readFile(runFiles(target).gradingJson, 'utf8'))).to.deep.equal(GRADING);
  });

  it('removes a copy that does not read back whole (a stop changed since it was read)', async () => {
    const read = await readSourceRun(source, KEY);
    if (read.status !== 'ok') throw new Error('unreadable');
    await writeFile(path.join(sourceDir(), 'stops', 'stop-01.json'), '{"changed": true}\n');
    const target = path.join(work, 'second', 'runs', ...KEY.split('/'));
    const copied = await copySourceRun(read.value, target, read.value.stored.record, false);
    expect(copied.status).to.equal('broken');
    expect(await readFile(runFiles(target).runJson, 'utf8').catch(() => null)).to.equal(null);
  });
});
