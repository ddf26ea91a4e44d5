import { expect } from 'chai';
import { LABELS } from '../../src/runtime/index.js';
import { EnginePool, LocalDockerProvider } from '../../src/sandbox/index.js';
import { BASE_IMAGE, TEST_CAMPAIGN, requireDocker, testDocker } from '../support/docker.js';

describe('sandbox: EnginePool reservations', function () {
  before(requireDocker);
  const labels = { [LABELS.campaign]: `${TEST_CAMPAIGN}-pool-reserve` };
  // Two members on the one test engine: what is checked is where the pool counts each start.
  const pool = new EnginePool([
    { provider: new LocalDockerProvider(testDocker()), slots: 1 },
    { provider: new LocalDockerProvider(testDocker()), slots: 1 },
  ]);
  const busy = (): number[] => pool.load().map((l) => l.busy);
  after(() => pool.reap(labels));

  it('a reservation holds its engine slot until released, or until its sandbox is removed', async () => {
    const given = pool.reserve({ image: BASE_IMAGE, labels, services: [] });
    expect(busy()).to.deep.equal([1, 0]);
    // The next start goes to the engine the reservation left free.
    const other = await pool.start({ image: BASE_IMAGE, labels });
    expect(busy()).to.deep.equal([1, 1]);
    await given.release();
    await given.release();
    expect(busy()).to.deep.equal([0, 1]);
    await other.remove();
    const used = pool.reserve({ image: BASE_IMAGE, labels, services: [] });
    const sandbox = await used.start({ image: BASE_IMAGE, labels });
    await used.release(); // started: the slot stays the sandbox's
    expect(busy()).to.deep.equal([1, 0]);
    await sandbox.remove();
    expect(busy()).to.deep.equal([0, 0]);
  });

  it('a reserved start that fails frees its slot', async () => {
    const reserved = pool.reserve({ image: BASE_IMAGE, labels, services: [] });
    const error = await reserved.start({ image: 'evalrig-absent:none', labels }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(Error);
    expect(busy()).to.deep.equal([0, 0]);
  });
});
