/**
 * The reaper's engine target against the real engine: what carries its labels is removed
 * (containers, the namespace holder last, then networks), nothing else is.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { connectDocker, LABELS } from '../../../../src/runtime/index.js';
import { engineCall } from '../../../../src/runtime/reaper/engine.js';
import { engineTarget } from '../../../../src/runtime/reaper/targets.js';
import { BASE_IMAGE, requireDocker } from '../../../support/docker.js';

describe('reaper: the engine target on a real engine', function () {
  before(requireDocker);
  this.timeout(120_000);
  const client = connectDocker();
  const tag = randomUUID();

  it("removes the containers and networks carrying every label, and leaves another's", async () => {
    const ours = { [LABELS.managed]: 'true', 'evalrig.test-reaper': tag };
    const theirs = { [LABELS.managed]: 'true', 'evalrig.test-reaper': `${tag}-other` };
    const make = (labels: Record<string, string>, extra: Record<string, string> = {}) =>
      client.docker.createContainer({
        Image: BASE_IMAGE,
        Cmd: ['sleep', '600'],
        Labels: { ...labels, ...extra },
        HostConfig: { NetworkMode: 'none' },
      });
    const a = await make(ours);
    await a.start();
    const holder = await make(ours, { [LABELS.place]: 'run' });
    const other = await make(theirs);
    const net = await client.docker.createNetwork({ Name: `reaper-${tag}`, Labels: ours });
    try {
      const socketPath = client.endpoint?.options.socketPath ?? '/var/run/docker.sock';
      const sweep = engineTarget(
        engineCall({ socketPath, https: false, labels: [], placeLabel: LABELS.place, sweepMs: 1 }),
        Object.entries(ours).map(([k, v]) => `${k}=${v}`),
        LABELS.place,
      );
      expect(await sweep.sweep()).to.equal(3);
      expect(await sweep.sweep()).to.equal(0);
      const left = await client.docker.listContainers({
        all: true,
        filters: { label: [`evalrig.test-reaper`] },
      });
      const ids = left.map((c) => c.Id);
      expect(ids).to.include(other.id).and.not.include(a.id).and.not.include(holder.id);
      await net.inspect().then(
        () => expect.fail('the network is still there'),
        (e: { statusCode?: number }) => expect(e.statusCode).to.equal(404),
      );
    } finally {
      await other.remove({ force: true });
    }
  });
});
