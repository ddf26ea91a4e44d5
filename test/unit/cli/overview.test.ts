import { expect } from 'chai';
import { Command } from 'commander';
import { registerCommands, verbsFor } from '../../../src/cli/commands/index.js';
import { OVERVIEW } from '../../../src/cli/commands/overview.js';

/** The top-level help of a program given `args` (undefined: every verb loaded). */
async function helpOf(args: readonly string[] | undefined): Promise<string> {
  const program = new Command('evalrig').description('d').version('0', '-V, --version');
  await registerCommands(program, args);
  return program.helpInformation();
}

describe('cli: the help lists every verb without loading it', () => {
  it('prints the same help from the summaries as from the verbs loaded', async () => {
    expect(await helpOf(['--help'])).to.equal(await helpOf(undefined));
  });

  it('has a summary for every verb, and none for a verb there is not', async () => {
    const loaded = new Command('evalrig');
    await registerCommands(loaded);
    expect(Object.keys(OVERVIEW)).to.have.members(loaded.commands.map((c) => c.name()));
  });

  it('loads the one verb named, also after help, and no verb for the version', () => {
    expect(verbsFor(['validate', 'evals.json'])).to.deep.equal(['validate']);
    expect(verbsFor(['help', 'export'])).to.deep.equal(['export']);
    expect(verbsFor(['--version'])).to.deep.equal([]);
    for (const args of [[], ['--help'], ['-h'], ['help'], ['nope'], ['--help', 'run']])
      expect(verbsFor(args), JSON.stringify(args)).to.equal('overview');
  });
});
