import { expect } from 'chai';
import { parseReaperConfig } from '../../../../src/runtime/reaper/config.js';
import { sweepUntilQuiet } from '../../../../src/runtime/reaper/loop.js';
import { quotaMounts, type SweepTarget } from '../../../../src/runtime/reaper/targets.js';

/** A target that finds what `found` says round by round (then nothing), or throws on a NaN. */
function target(found: number[]): SweepTarget & { rounds: number } {
  const t = {
    name: 'test',
    rounds: 0,
    async sweep() {
      const n = found[t.rounds++] ?? 0;
      if (Number.isNaN(n)) throw new Error('engine down');
      return n;
    },
  };
  return t;
}

describe('reaper: its rounds, its config, the quota mounts it finds', () => {
  const clock = () => {
    let t = 0;
    return { now: () => t, sleep: async (ms: number) => void (t += ms) };
  };

  it('sweeps until three rounds in a row find nothing, a failed round not quiet', async () => {
    const a = target([2, 0, NaN, 0, 1]);
    const b = target([1]);
    const rounds = await sweepUntilQuiet([a, b], { sweepMs: 60_000, ...clock() });
    // 2+1, 0, (a fails), 0, 1, then three quiet rounds.
    expect(rounds).to.equal(8);
    expect(a.rounds).to.equal(8);
  });

  it('stops at its deadline when the engine never answers', async () => {
    const down = target(new Array(1000).fill(NaN));
    const rounds = await sweepUntilQuiet([down], { sweepMs: 5_000, pauseMs: 1000, ...clock() });
    expect(rounds).to.equal(5);
  });

  it('reads a config with one engine end and labels, and refuses one without', () => {
    const ok = { labels: ['a=b'], placeLabel: 'p', sweepMs: 1000, https: false };
    expect(parseReaperConfig(JSON.stringify({ ...ok, socketPath: '/s' })).socketPath).to.equal(
      '/s',
    );
    expect(() => parseReaperConfig(JSON.stringify(ok))).to.throw(
      /one of socketPath, host, ssh or kubernetes/u,
    );
    expect(() =>
      parseReaperConfig(JSON.stringify({ ...ok, socketPath: '/s', labels: [] })),
    ).to.throw(/no labels/u);
    expect(() =>
      parseReaperConfig(JSON.stringify({ ...ok, socketPath: '/s', sweepMs: 0 })),
    ).to.throw(/sweepMs/u);
  });

  it("finds the quota mounts under its folder, deepest first, only its owner's", () => {
    const info = [
      '36 25 0:32 / /out/work/a\\040b rw - ext4 /dev/loop1.mine rw',
      '37 25 0:33 / /out/work/a\\040b/deep rw - ext4 /dev/loop2.mine rw',
      '38 25 0:34 / /out/work/c rw - ext4 /dev/loop3.theirs rw',
      '39 25 0:35 / /elsewhere rw - ext4 /dev/loop4.mine rw',
    ].join('\n');
    expect(quotaMounts(info, '/out/work', 'mine')).to.deep.equal([
      '/out/work/a b/deep',
      '/out/work/a b',
    ]);
    expect(quotaMounts(info, '/out/work/')).to.have.length(3);
  });
});
