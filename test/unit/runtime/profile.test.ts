import { expect } from 'chai';
import { EngineProfile, EngineRefusedError } from '../../../src/runtime/index.js';

const rlimit = (type: number) =>
  new EngineRefusedError(
    'e',
    'a container start',
    `runc create failed: error setting rlimits for ready process: error setting rlimit type ${type}: operation not permitted`,
    500,
  );

describe('runtime/EngineProfile', () => {
  it("lowers, step by step, the one limit runc says it could not set (Podman's 1048576 first)", () => {
    const profile = new EngineProfile();
    const lower = (type: number) => profile.lowerAfter(rlimit(type), profile.ulimits);
    expect(lower(7)).to.equal(true);
    expect(profile.ulimits).to.deep.equal([{ Name: 'nofile', Soft: 65536, Hard: 65536 }]);
    expect(lower(6)).to.equal(true);
    expect(lower(7)).to.equal(true);
    expect(profile.ulimits).to.deep.equal([
      { Name: 'nproc', Soft: 65536, Hard: 65536 },
      { Name: 'nofile', Soft: 16384, Hard: 16384 },
    ]);
    expect(lower(7)).to.equal(true);
    expect(lower(7)).to.equal(true);
    expect(lower(7), 'nothing lower than 1024').to.equal(false);
  });

  it('lowers once for creations refused at once: the others retry with what it set', () => {
    const profile = new EngineProfile();
    const sent = profile.ulimits;
    expect(profile.lowerAfter(rlimit(7), sent)).to.equal(true);
    const lowered = profile.ulimits;
    expect(profile.lowerAfter(rlimit(7), sent)).to.equal(true);
    expect(profile.ulimits).to.equal(lowered);
  });

  it('lowers nothing for another refusal or another limit', () => {
    const profile = new EngineProfile();
    expect(profile.lowerAfter(rlimit(8), undefined)).to.equal(false);
    const image = new EngineRefusedError('e', 'x', 'no such image', 404);
    expect(profile.lowerAfter(image, undefined)).to.equal(false);
    expect(profile.lowerAfter(new Error('error setting rlimit type 7'), undefined)).to.equal(false);
    expect(profile.ulimits).to.equal(undefined);
  });
});
