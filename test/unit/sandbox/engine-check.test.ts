import { expect } from 'chai';
import { limitsHold, parseLook } from '../../../src/sandbox/engine-check.js';
import { typeOfMode } from '../../../src/sandbox/path-stat.js';

describe('sandbox/engine-check', () => {
  it("reads the locked-down container's look, and whether its limits hold", () => {
    const look = parseLook(
      'uid=65534\nmemory=268435456\npids=128\nnetwork=lo \ninit=/sbin/docker-init\n',
    );
    expect(look).to.deep.equal({
      uid: '65534',
      memory: '268435456',
      pids: '128',
      network: ['lo'],
      init: '/sbin/docker-init',
    });
    const limits = { memoryBytes: 256 * 1024 ** 2, pids: 128 };
    expect(limitsHold(look, limits)).to.equal(true);
    // Rootless Podman on cgroup v1: no memory limit, no pids controller.
    const loose = parseLook('uid=65534\nmemory=9223372036854771712\npids=\nnetwork=lo\ninit=x');
    expect(limitsHold(loose, limits)).to.equal(false);
    expect(limitsHold(parseLook('uid=1\nmemory=max\npids=max'), limits)).to.equal(false);
  });

  it("names the type of an archive path stat's mode (Go's os.FileMode bits)", () => {
    expect(typeOfMode(0o644)).to.equal(undefined);
    expect(typeOfMode(134218239)).to.equal('symlink');
    expect(typeOfMode(2 ** 31 + 0o755)).to.equal('directory');
    expect(typeOfMode(2 ** 25 + 0o644)).to.equal('fifo');
  });
});
