import { expect } from 'chai';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { RunRecord } from '../../../../src/artifacts/index.js';
import { readRun, runLayout, writeRun } from '../../../../src/campaign-folder/index.js';
import type { PlannedRun } from '../../../../src/campaign/plan.js';
import {
  decideRun,
  fingerprintOf,
  hashValue,
  reuseSources,
  type Fingerprint,
  type ReuseSource,
} from '../../../../src/campaign/reuse/index.js';
import { InputError } from '../../../../src/errors/index.js';
import { GOOD_RUN, MIXED, writeCampaign } from '../../../integration/report/fixture.js';

const KEY = 'add-feature/with_skill/run-01';
const PLANNED = {
  eval: { id: 'add-feature' },
  condition: { name: 'with_skill' },
  run: 1,
  key: KEY,
} as unknown as PlannedRun;

const NOW: Fingerprint = fingerprintOf({
  run: hashValue(1),
  'stage:.claude/skills/tdd/SKILL.md': hashValue('# tdd'),
  'model.script': hashValue('script v1'),
});

/** Rewrites a source run's record (its fingerprint, its status). */
async function patchRun(folder: string, change: Partial<RunRecord>): Promise<void> {
  const dir = runLayout(folder, KEY).dir;
  const read = await readRun(dir);
  if (read.status !== 'ok') throw new Error('unreadable fixture');
  await writeRun(dir, { ...read.value.record, ...change } as RunRecord);
}

/** Which earlier run a planned run is copied from, and why not when it is played. */
describe('reuse: the earlier run a planned run is copied from', function () {
  this.timeout(30_000);
  let work: string;
  let sources: ReuseSource[];
  const folder = (name: string) => path.join(work, name);

  beforeEach(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), 'evalrig-match-'));
    for (const name of ['first', 'second'])
      await writeCampaign(folder(name), { ...MIXED, runs: 2, plan: () => GOOD_RUN });
    sources = await reuseSources(folder('out'), [folder('first'), folder('second')]);
  });
  afterEach(() => rm(work, { recursive: true, force: true }));

  it('copies the completed run with the same fingerprint from the first folder that has one', async () => {
    await patchRun(folder('first'), { fingerprint: NOW });
    await patchRun(folder('second'), { fingerprint: NOW });
    const d = await decideRun(sources, PLANNED, NOW);
    expect(d.kind).to.equal('reused');
    expect(d.kind === 'reused' && d.source.folder).to.equal(folder('first'));
  });

  it('goes on to the next folder when the first changed, and says what changed when none matches', async () => {
    const changed = fingerprintOf({ ...NOW.inputs, 'model.script': hashValue('script v0') });
    await patchRun(folder('first'), { fingerprint: changed });
    await patchRun(folder('second'), { fingerprint: NOW });
    const d = await decideRun(sources, PLANNED, NOW);
    expect(d.kind === 'reused' && d.source.folder).to.equal(folder('second'));
    await patchRun(folder('second'), { fingerprint: changed });
    expect(await decideRun(sources, PLANNED, NOW)).to.deep.equal({
      kind: 'play',
      why: 'the model script changed',
    });
  });

  it('plays a run that did not complete there, or that an earlier evalrig did not fingerprint', async () => {
    await patchRun(folder('first'), { fingerprint: NOW, status: 'failed', phase: 'turn 1' });
    expect(await decideRun(sources.slice(0, 1), PLANNED, NOW)).to.deep.equal({
      kind: 'play',
      why: `failed in ${folder('first')}`,
    });
    expect(await decideRun(sources.slice(1), PLANNED, NOW)).to.deep.equal({
      kind: 'play',
      why: `not fingerprinted in ${folder('second')} (an earlier evalrig)`,
    });
  });

  it('trusts no fingerprint that is not the hash of the inputs it lists', async () => {
    await patchRun(folder('first'), {
      fingerprint: { sha256: NOW.sha256, inputs: { ...NOW.inputs, run: hashValue(2) } },
    });
    expect(await decideRun(sources.slice(0, 1), PLANNED, NOW)).to.deep.equal({
      kind: 'play',
      why: `its fingerprint in ${folder('first')} does not match its inputs`,
    });
  });

  it('plays a run no folder has, and one whose folder there is a link, with a warning', async () => {
    const missing = { ...PLANNED, key: 'add-feature/with_skill/run-09' } as PlannedRun;
    expect(await decideRun(sources, missing, NOW)).to.deep.equal({
      kind: 'play',
      why: `not in ${folder('first')}, ${folder('second')}`,
    });
    const dir = runLayout(folder('first'), KEY).dir;
    await rm(dir, { recursive: true });
    await symlink(runLayout(folder('second'), KEY).dir, dir);
    const d = await decideRun(sources.slice(0, 1), PLANNED, NOW);
    expect(d).to.deep.equal({
      kind: 'play',
      why: `unreadable in ${folder('first')}`,
      warning: `--reuse ${folder('first')}: ${KEY}: ${dir} is not a folder (a link is not followed)`,
    });
  });

  it('refuses a --reuse folder that is the --out folder, is missing, or holds no campaign', async () => {
    const refused = async (out: string, given: string): Promise<string> => {
      try {
        await reuseSources(out, [given]);
      } catch (error) {
        expect(error).to.be.instanceOf(InputError);
        return (error as Error).message;
      }
      throw new Error('not refused');
    };
    expect(await refused(folder('first'), folder('first'))).to.match(
      /is the --out folder itself: its finished runs are kept anyway/,
    );
    expect(await refused(folder('out'), folder('nowhere'))).to.equal(
      `--reuse ${folder('nowhere')}: no such folder`,
    );
    expect(await refused(folder('out'), path.join(folder('first'), 'runs'))).to.match(
      /conditions\.json is missing: .* is not a campaign folder/,
    );
  });
});
