import { expect } from 'chai';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  WorkspaceError,
  canMountQuota,
  closeQuotas,
  mountQuota,
} from '../../../src/workspace/index.js';
import { tempDir } from '../source/fixtures.js';

/** The mounts under `folder`, from the kernel's own table. */
function mountsUnder(folder: string): string[] {
  return readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .map((line) => line.split(' ')[4] ?? '')
    .filter((target) => target.startsWith(`${folder}/`));
}

/**
 * A stopping campaign's quotas: a mount under way when the signal comes used
 * to land after the sweep and outlive the process (its folder then could not
 * be removed: EBUSY). closeQuotas waits for it, then unmounts everything.
 */
describe('workspace: the disk quotas of a stopping campaign', function () {
  let tmp: ReturnType<typeof tempDir>;

  before(function () {
    if (!canMountQuota()) this.skip();
  });
  beforeEach(() => {
    tmp = tempDir('quota');
  });
  afterEach(() => tmp.cleanup());

  it('a quota being mounted while the campaign stops is unmounted too, and none is mounted after', async () => {
    const work = join(tmp.dir, 'work');
    const runs = ['a', 'b', 'c'].map((name) => {
      const root = join(work, name);
      mkdirSync(join(root, 'base'), { recursive: true });
      writeFileSync(join(root, 'base', 'file'), 'x');
      return root;
    });
    // Three mounts under way, and the stop comes before any has landed.
    const mounting = runs.map((root) => mountQuota(root, join(root, 'base'), 1024 ** 2, 'test'));
    const removed = await closeQuotas(work);
    expect(removed).to.equal(6); // a tmpfs and an overlay per run
    await Promise.all(mounting);
    expect(mountsUnder(work)).to.deep.equal([]);

    const late = join(work, 'd');
    mkdirSync(join(late, 'base'), { recursive: true });
    const error = await mountQuota(late, join(late, 'base'), 1024 ** 2, 'test').catch(
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(WorkspaceError);
    expect(String((error as Error).message)).to.contain('the campaign is stopping');
    expect(mountsUnder(work)).to.deep.equal([]);
  });

  it('a folder beside the stopping one keeps mounting', async () => {
    const stopping = join(tmp.dir, 'one', 'work');
    const other = join(tmp.dir, 'one', 'work-2', 'r');
    mkdirSync(join(other, 'base'), { recursive: true });
    await closeQuotas(stopping);
    const quota = await mountQuota(other, join(other, 'base'), 1024 ** 2, 'test');
    expect(mountsUnder(join(tmp.dir, 'one'))).to.have.length(2);
    // The owner's mark, by which a reaper tells its campaign's quotas from a resumed one's.
    const sources = readFileSync('/proc/self/mountinfo', 'utf8')
      .split('\n')
      .filter((line) => line.includes(`${other}/`))
      .map((line) => line.split(' - ')[1]?.split(' ')[1]);
    expect(sources.sort()).to.deep.equal(['evalrig-quota.test', 'evalrig-view.test']);
    await quota.unmount();
    expect(mountsUnder(join(tmp.dir, 'one'))).to.deep.equal([]);
  });
});
