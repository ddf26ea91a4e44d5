import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { missingFigures } from '../../../src/cli/commands/plan.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));

describe('evalrig plan without enough figures', function () {
  this.timeout(60_000);

  it('says which figure a stated turn still needs when one alone is given', async () => {
    const said = await execa(
      'node',
      [
        '--import',
        'tsx',
        'src/cli/main.ts',
        'plan',
        'examples/pr-workflow/evals.json',
        '--turn-seconds',
        '60',
      ],
      { cwd: root, reject: false },
    );
    expect(said.exitCode).to.equal(2);
    expect(said.stdout).to.equal('');
    expect(said.stderr).to.equal(
      'evalrig: --turn-seconds 60 alone is not a forecast: stated per-turn figures need --turn-cost <usd> too (the USD one turn costs; --turn-tokens counts 0 when left out; or give a pilot campaign with --from <dir>)',
    );
  });

  it('names every figure given, and what each left out counts', () => {
    expect(missingFigures({ turnTokens: '1000', turnSeconds: '30' })).to.match(
      /^--turn-tokens 1000 and --turn-seconds 30 alone is not a forecast: .*need --turn-cost <usd> too \(the USD one turn costs; or give/u,
    );
    expect(missingFigures({})).to.equal(
      'give a pilot campaign (--from <dir>) or stated per-turn figures: --turn-cost <usd> (needed), with --turn-tokens <n> and --turn-seconds <s> (0 when left out)',
    );
  });
});
