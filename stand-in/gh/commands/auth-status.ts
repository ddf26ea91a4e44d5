import { exactlyNoArguments, notPlayed, played, str } from '../cli/args.js';
import { HELP_FLAG } from './common.js';
import type { Command } from './types.js';

const spec: Command['spec'] = {
  name: 'auth status',
  use: 'status',
  help: {
    short: 'Display active account and authentication state on each known GitHub host',
    long: `Display active account and authentication state on each known GitHub host.

For each host, the authentication state of each known account is tested and any issues are included in the output.
Each host section will indicate the active account, which will be used when targeting that host.
If an account on any host (or only the one given via \`--hostname\`) has authentication issues,
the command will exit with 1 and output to stderr.

To change the active account for a host, see \`gh auth switch\`.
`,
  },
  flags: [
    played('hostname', 'string', 'h', "Check only a specific hostname's auth status"),
    notPlayed('show-token', 'bool', 't', 'Display the auth token'),
    played('active', 'bool', 'a', 'Display the active account only'),
    HELP_FLAG,
  ],
};

/** `gh auth status`: always logged in to github.com, as GH_STAND_IN_USER. */
export const authStatus: Command = {
  spec,
  run(ctx, args) {
    exactlyNoArguments(args);
    // One account on one host: `--active` shows what all would. Another host is not logged in
    // (gh compares the name as given).
    const hostname = str(args, 'hostname') ?? '';
    if (hostname !== '' && hostname !== 'github.com') {
      return { stderr: `You are not logged into any accounts on ${hostname}\n`, exitCode: 1 };
    }
    const envToken = ctx.env.GH_TOKEN
      ? 'GH_TOKEN'
      : ctx.env.GITHUB_TOKEN
        ? 'GITHUB_TOKEN'
        : undefined;
    const source = envToken ?? 'keyring';
    // The keyring holds an OAuth token of 40 characters, as `gh auth login` stores.
    const token = envToken ? (ctx.env[envToken] ?? '') : `gho_${'x'.repeat(36)}`;
    let out =
      'github.com\n' +
      `  ✓ Logged in to github.com account ${ctx.user()} (${source})\n` +
      '  - Active account: true\n' +
      '  - Git operations protocol: https\n' +
      `  - Token: ${displayToken(token)}\n`;
    // gh lists scopes only for classic and OAuth tokens (status.go `expectScopes`).
    if (token.startsWith('ghp_') || token.startsWith('gho_')) {
      out += "  - Token scopes: 'gist', 'read:org', 'repo', 'workflow'\n";
    }
    return { stdout: out };
  },
};

/** gh's `displayToken`: the prefix up to the last `_` kept, every other byte a star. */
function displayToken(token: string): string {
  const idx = token.lastIndexOf('_');
  const prefix = idx > -1 ? token.slice(0, idx + 1) : '';
  return prefix + '*'.repeat(Buffer.byteLength(token) - Buffer.byteLength(prefix));
}
