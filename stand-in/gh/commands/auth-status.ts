import { notPlayed, type CommandSpec } from '../cli/args.js';
import type { Command } from './types.js';

const spec: CommandSpec = {
  name: 'auth status',
  flags: [
    notPlayed('hostname', 'string', 'h'),
    notPlayed('show-token', 'bool', 't'),
    notPlayed('active', 'bool', 'a'),
    notPlayed('json', 'string'),
    notPlayed('help', 'bool'),
  ],
};

/** `gh auth status`: always logged in to github.com, as GH_STAND_IN_USER. */
export const authStatus: Command = {
  spec,
  run(ctx, args) {
    if (args.positional.length > 0) {
      return { stderr: `unknown argument "${args.positional[0]}"\n`, exitCode: 1 };
    }
    const source = ctx.env.GH_TOKEN
      ? 'GH_TOKEN'
      : ctx.env.GITHUB_TOKEN
        ? 'GITHUB_TOKEN'
        : 'keyring';
    return {
      stdout:
        'github.com\n' +
        `  ✓ Logged in to github.com account ${ctx.user()} (${source})\n` +
        '  - Active account: true\n' +
        '  - Git operations protocol: https\n' +
        `  - Token: gho_${'*'.repeat(36)}\n` +
        "  - Token scopes: 'gist', 'read:org', 'repo', 'workflow'\n",
    };
  },
};
