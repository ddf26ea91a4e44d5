import { AUTH_STATUS_USAGE, err, flagErr, out, runCases } from './cases.js';

const HELP = 'pkg/cmd/root/help.go';
const STATUS = 'pkg/cmd/auth/status/status.go';

const PR_COMMANDS = [
  'checkout',
  'checks',
  'close',
  'comment',
  'create',
  'diff',
  'edit',
  'list',
  'lock',
  'merge',
  'ready',
  'reopen',
  'review',
  'status',
  'unlock',
  'update-branch',
  'view',
];
const prUsage =
  'Usage:  gh pr <command> [flags]\n\nAvailable commands:\n' +
  PR_COMMANDS.map((c) => `  ${c}\n`).join('');

const status = (source: string, token: string, scopes: boolean): string =>
  'github.com\n' +
  `  ✓ Logged in to github.com account evalrig (${source})\n` +
  '  - Active account: true\n' +
  '  - Git operations protocol: https\n' +
  `  - Token: ${token}\n` +
  (scopes ? "  - Token scopes: 'gist', 'read:org', 'repo', 'workflow'\n" : '');

runCases('unknown commands, auth status', [
  {
    name: "an unknown pr command: the error and the group's commands, on stderr",
    cite: `${HELP} nestedSuggestFunc, rootUsageFunc; pkg/cmd/pr/pr.go`,
    args: ['pr', 'bogus'],
    want: err(`unknown command "bogus" for "gh pr"\n\n${prUsage}`),
  },
  {
    name: "a near miss gets cobra's suggestion",
    cite: `${HELP} nestedSuggestFunc; spf13/cobra v1.8.1 command.go SuggestionsFor`,
    args: ['pr', 'craete'],
    want: err(`unknown command "craete" for "gh pr"\n\nDid you mean this?\n\tcreate\n\n${prUsage}`),
  },
  {
    name: 'repo view prints the README through Fprintf, its % signs read as verbs',
    cite: 'pkg/cmd/repo/view/view.go viewRun (fmt.Fprintf(stdout, readme.Content)); Go fmt',
    bare: true,
    setup: async (r) => {
      await r.commit('README.md', '100% done, 50%s, %%\n');
      await r.git('push', '-q', 'origin', 'main');
    },
    args: ['repo', 'view'],
    want: out('name:\tacme/toy\ndescription:\t\n--\n100%!d(MISSING)one, 50%!s(MISSING), %\n\n'),
  },
  {
    name: 'auth status takes no argument',
    cite: `${STATUS} (cobra.ExactArgs(0)); spf13/cobra v1.8.1 args.go`,
    args: ['auth', 'status', 'extra'],
    want: err('accepts 0 arg(s), received 1\n'),
  },
  {
    name: 'auth status: -h is --hostname, needing a value',
    cite: `${STATUS} NewCmdStatus; spf13/pflag v1.0.5 flag.go`,
    args: ['auth', 'status', '-h'],
    want: flagErr("flag needs an argument: 'h' in -h", AUTH_STATUS_USAGE),
  },
  {
    name: 'a GH_TOKEN is masked after its last underscore, byte for byte',
    cite: `${STATUS} displayToken, expectScopes`,
    env: { GH_TOKEN: 'ghp_abc123' },
    args: ['auth', 'status'],
    want: out(status('GH_TOKEN', 'ghp_******', true)),
  },
  {
    name: 'a fine-grained token lists no scopes',
    cite: `${STATUS} displayToken, expectScopes`,
    env: { GITHUB_TOKEN: 'github_pat_11ABCDEF' },
    args: ['auth', 'status'],
    want: out(status('GITHUB_TOKEN', 'github_pat_********', false)),
  },
]);
