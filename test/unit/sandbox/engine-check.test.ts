import { expect } from 'chai';
import { EngineProfile, EngineRefusedError } from '../../../src/runtime/index.js';
import { limitsHold, lowerUlimit, parseLook } from '../../../src/sandbox/engine-check.js';
import { typeOfMode } from '../../../src/sandbox/path-stat.js';

const rlimit = (type: number) =>
  new EngineRefusedError(
    'e',
    'a container start',
    `runc create failed: error setting rlimits for ready process: error setting rlimit type ${type}: operation not permitted`,
    500,
  );

describe('sandbox/engine-check', () => {
  it("lowers, step by step, the one limit runc says it could not set (Podman's 1048576 first)", () => {
    const profile = new EngineProfile();
    expect(lowerUlimit(profile, rlimit(7))).to.equal(true);
    expect(profile.ulimits).to.deep.equal([{ Name: 'nofile', Soft: 65536, Hard: 65536 }]);
    expect(lowerUlimit(profile, rlimit(6))).to.equal(true);
    expect(lowerUlimit(profile, rlimit(7))).to.equal(true);
    expect(profile.ulimits).to.deep.equal([
      { Name: 'nproc', Soft: 65536, Hard: 65536 },
      { Name: 'nofile', Soft: 16384, Hard: 16384 },
    ]);
    expect(lowerUlimit(profile, rlimit(7))).to.equal(true);
    expect(lowerUlimit(profile, rlimit(7))).to.equal(true);
    expect(lowerUlimit(profile, rlimit(7)), 'nothing lower than 1024').to.equal(false);
  });

  it('lowers nothing for another refusal or another limit', () => {
    const profile = new EngineProfile();
    expect(lowerUlimit(profile, rlimit(8))).to.equal(false);
    expect(lowerUlimit(profile, new EngineRefusedError('e', 'x', 'no such image', 404))).to.equal(
      false,
    );
    expect(lowerUlimit(profile, new Error('error setting rlimit type 7'))).to.equal(false);
    expect(profile.ulimits).to.equal(undefined);
  });

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
