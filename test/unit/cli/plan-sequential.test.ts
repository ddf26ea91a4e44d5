import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { execa } from 'execa';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const set = path.join(root, 'examples/pr-workflow/evals.json');

function plan(args: string[]) {
  return execa('node', ['--import', 'tsx', 'src/cli/main.ts', 'plan', set, ...args], {
    cwd: root,
    reject: false,
  });
}

describe('cli: evalrig plan --until-decided', function () {
  this.timeout(60_000);

  it('gives the expected and worst-case runs and cost of the sequential design', async () => {
    const r = await plan(['--until-decided', '--max-runs', '20', '--turn-cost', '0.05', '--json']);
    expect(r.exitCode, r.stderr).to.equal(0);
    const f = JSON.parse(r.stdout) as {
      cost_usd: { expected: number };
      sequential: {
        worstRuns: number;
        expectedRuns: { none: number; minEffect: number };
        cost_usd: { none: number; min_effect: number; worst: number };
        fixedRuns: number;
      };
    };
    const s = f.sequential;
    expect(s.worstRuns).to.equal(20);
    expect(s.expectedRuns.none).to.be.below(20);
    // The worst case is every planned run: the forecast's own cost.
    expect(s.cost_usd.worst).to.be.closeTo(f.cost_usd.expected, 1e-9);
    expect(s.cost_usd.none).to.be.closeTo((f.cost_usd.expected * s.expectedRuns.none) / 20, 1e-9);
    const lines = await plan(['--until-decided', '--max-runs', '20', '--turn-cost', '0.05']);
    expect(lines.stdout).to.match(
      /runs a condition: expected [0-9.]+ with no effect, [0-9.]+ at the smallest effect, 20 at worst/u,
    );
  });

  it('refuses --max-runs without --until-decided, and --runs with it', async () => {
    const alone = await plan(['--max-runs', '20', '--turn-cost', '0.05']);
    expect(alone.exitCode).to.not.equal(0);
    expect(alone.stderr).to.include('--max-runs is the most --until-decided may play');
    const both = await plan(['--until-decided', '--runs', '20', '--turn-cost', '0.05']);
    expect(both.stderr).to.include('--runs and --until-decided conflict');
    expect(both.stderr).to.not.match(/^\s+at /mu);
  });
});
