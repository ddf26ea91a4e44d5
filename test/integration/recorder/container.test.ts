import { expect } from 'chai';
import { chmod } from 'node:fs/promises';
import path from 'node:path';
import { LABELS, removeContainers, runOnce } from '../../../src/runtime/index.js';
import { GH_RECORDER_ENV } from '../../../src/recorder/index.js';
import { BASE_IMAGE, requireDocker, TEST_CAMPAIGN, testDocker } from '../../support/docker.js';
import { ghBundle } from '../stand-in/gh/support.js';
import { tempRecorder } from './support.js';

const client = testDocker();
const labels = { [LABELS.campaign]: TEST_CAMPAIGN };

/**
 * How a run wires the recorder: the socket's folder mounted read-only into the container,
 * where the stand-in runs as uid 1000 (the agent's user) and reports through it.
 */
describe('gh recorder: the container’s user reports through a read-only mount', function () {
  before(requireDocker);
  after(async () => {
    await removeContainers(client, labels);
  });

  it('a call of the stand-in as uid 1000 in a container reaches the host', async () => {
    const rec = await tempRecorder();
    try {
      // Enter, not list: the container's user needs to reach the socket, nothing more.
      await chmod(rec.folder, 0o711);
      const bundle = await ghBundle();
      await chmod(path.dirname(bundle), 0o755); // the test's own temporary folder
      const script = [
        'set -e',
        'cd "$HOME"',
        'git init -q -b main toy',
        'cd toy',
        'git remote add origin https://github.com/acme/toy.git',
        'node /opt/gh/gh --version',
        'node /opt/gh/gh pr list',
        'test ! -e /run/evalrig/x && ! touch /run/evalrig/x 2>/dev/null',
      ].join('\n');
      const r = await runOnce(
        client,
        {
          image: BASE_IMAGE,
          user: '1000:1000',
          labels,
          env: { HOME: '/tmp', [GH_RECORDER_ENV]: '/run/evalrig/gh.sock' },
          binds: [
            { host: rec.folder, container: '/run/evalrig', readOnly: true },
            { host: path.dirname(bundle), container: '/opt/gh', readOnly: true },
          ],
        },
        ['sh', '-c', script],
        { timeoutMs: 60_000 },
      );
      expect(r.exitCode, r.stderr).to.equal(0);
      expect(rec.recorder.problems()).to.deep.equal([]);
      expect(rec.recorder.calls().map((c) => [c.seq, c.command, c.cwd])).to.deep.equal([
        [1, '--version', '/tmp/toy'],
        [2, 'pr list', '/tmp/toy'],
      ]);
      expect(rec.recorder.state()).to.deep.equal({
        version: 1,
        next_number: 1,
        pull_requests: [],
      });
    } finally {
      await rec.stop();
    }
  });
});
