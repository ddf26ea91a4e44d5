import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { canMountQuota } from '../../src/workspace/index.js';
import { requireDocker } from '../support/docker.js';
import { playAttacks, sh, type PlayedCampaign } from './support.js';

describe('security: the limits of a run hold', function () {
  before(requireDocker);
  this.timeout(300_000);

  describe('a disk quota per run (evalrig as root)', () => {
    let played: PlayedCampaign;
    before(async function () {
      if (!canMountQuota()) this.skip();
      played = await playAttacks(
        [
          {
            id: 'fill-the-disk',
            turns: [
              [
                sh('dd if=/dev/zero of=big.bin bs=1M count=96 2>&1; echo "dd exit $?"'),
                sh(
                  'git remote get-url origin >/dev/null && dd if=/dev/zero of=/remote/x bs=1M count=8 2>&1',
                ),
              ],
            ],
          },
        ],
        { set: { resources: { memory: '512m', cpus: 1, pids: 256, disk: '32m' } } },
      );
    });
    after(() => played?.ws.cleanup());

    it('refuses the write past the quota inside the container, and the run goes on to its record', async () => {
      const out = await readFile(
        path.join(played.ws.outDir, 'runs/fill-the-disk/default/run-01/turns/turn-01.stderr.txt'),
        'utf8',
      );
      expect(out).to.match(/No space left on device/);
      const record = await played.record('fill-the-disk');
      expect(record.status).to.equal('completed');
      expect(record.diff.files_added).to.equal(1);
    });
  });
});
