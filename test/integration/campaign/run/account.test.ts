/**
 * The agent's account: from inside a real container of the bare base image (which has no user
 * of uid 1000), `id -un`, `getent passwd 1000` and Node's os.userInfo() (what Qwen Code calls at
 * start) answer once the harness has added the entry; an image that has the uid keeps its file.
 */
import { expect } from 'chai';
import { ensureAgentAccount, type AccountMemo } from '../../../../src/campaign/run/account.js';
import { LABELS } from '../../../../src/runtime/index.js';
import { LocalDockerProvider, type Sandbox } from '../../../../src/sandbox/index.js';
import { BASE_IMAGE, TEST_CAMPAIGN, requireDocker, testDocker } from '../../../support/docker.js';

describe("campaign run: the agent's account in its sandbox", function () {
  this.timeout(120_000);
  let sandbox: Sandbox;
  const as1000 = { user: '1000:1000' };

  before(requireDocker);
  before(async () => {
    sandbox = await new LocalDockerProvider(testDocker()).start({
      image: BASE_IMAGE,
      execUser: '1000:1000',
      labels: { [LABELS.campaign]: `${TEST_CAMPAIGN}-account` },
    });
  });
  after(() => sandbox?.remove());

  it('the bare base has no user of uid 1000: getpwuid fails there', async () => {
    const r = await sandbox.exec(['sh', '-c', 'id -un; getent passwd 1000'], as1000);
    expect(r.exitCode).to.not.equal(0);
    expect(r.stderr).to.match(/cannot find name for user ID 1000/u);
  });

  it('adds the entry and its group; id -un, getent and os.userInfo() answer from inside', async () => {
    const added = await ensureAgentAccount(sandbox, { uid: 1000, gid: 1000 }, '/tmp/evalrig-home');
    expect(added).to.deep.equal({
      passwd: 'evalrig:x:1000:1000:evalrig agent:/tmp/evalrig-home:/bin/sh',
      group: 'evalrig:x:1000:',
    });
    const r = await sandbox.exec(
      ['sh', '-c', 'id -un; id -gn; getent passwd 1000; node -p "os.userInfo().username"'],
      as1000,
    );
    expect(r.exitCode, r.stderr).to.equal(0);
    expect(r.stdout.split('\n')).to.deep.equal([
      'evalrig',
      'evalrig',
      'evalrig:x:1000:1000:evalrig agent:/tmp/evalrig-home:/bin/sh',
      'evalrig',
      '',
    ]);
    // The image's own entries are kept, root first.
    const passwd = await sandbox.exec(['head', '-n', '1', '/etc/passwd'], as1000);
    expect(passwd.stdout).to.match(/^root:x:0:0:/u);
  });

  it('adds nothing where the image has the uid (root, or the entry added before)', async () => {
    expect(await ensureAgentAccount(sandbox, { uid: 0, gid: 0 }, '/root')).to.deep.equal({});
    expect(await ensureAgentAccount(sandbox, { uid: 1000, gid: 1000 }, '/x')).to.deep.equal({});
    const lines = await sandbox.exec(['grep', '-c', ':1000:', '/etc/passwd'], as1000);
    expect(lines.stdout.trim()).to.equal('1');
  });

  it('sandboxes of an image met before get the same edit without reading its files again', async () => {
    const provider = new LocalDockerProvider(testDocker());
    const start = () =>
      provider.start({
        image: BASE_IMAGE,
        execUser: '1000:1000',
        labels: { [LABELS.campaign]: `${TEST_CAMPAIGN}-account` },
      });
    const [first, second] = await Promise.all([start(), start()]);
    try {
      const reads: string[] = [];
      const counted = (s: Sandbox): Sandbox =>
        new Proxy(s, {
          get(target, name, receiver) {
            if (name !== 'readFile') return Reflect.get(target, name, receiver) as unknown;
            return (file: string, options: { maxBytes: number }) => {
              reads.push(file);
              return target.readFile(file, options);
            };
          },
        });
      const memo = { known: new Map() as AccountMemo, image: BASE_IMAGE };
      const owner = { uid: 1000, gid: 1000 };
      // Two sandboxes starting together (a run and the one prepared ahead) share the reads.
      const [once, again] = await Promise.all([
        ensureAgentAccount(counted(first), owner, '/tmp/h', memo),
        ensureAgentAccount(counted(second), owner, '/tmp/h', memo),
      ]);
      expect(again).to.deep.equal(once);
      expect(reads, 'one read of each file for both').to.have.length(2);
      for (const s of [first, second]) {
        const r = await s.exec(['sh', '-c', 'id -un; getent group 1000'], as1000);
        expect(r.exitCode, r.stderr).to.equal(0);
        expect(r.stdout).to.equal('evalrig\nevalrig:x:1000:\n');
      }
      // A later sandbox of the image (its files as the image has them) is not read at all.
      await ensureAgentAccount(counted(second), owner, '/tmp/h', memo);
      expect(reads).to.have.length(2);
    } finally {
      await Promise.all([first.remove(), second.remove()]);
    }
  });
});
