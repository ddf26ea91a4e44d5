import { err, flagErr, out, pr, PR_LIST_USAGE, runCases } from './cases.js';

const LIST = 'pkg/cmd/pr/list/list.go';
const HTTP = 'pkg/cmd/pr/list/http.go';
const TEST = 'pkg/cmd/pr/list/list_test.go';
const FLAGS = 'pkg/cmdutil/flags.go';

/** Open, open draft, closed and merged pull requests, created in number order. */
const mixed = {
  pull_requests: [
    pr(1, 'one'),
    pr(2, 'two', { draft: true }),
    pr(3, 'three', { state: 'CLOSED' }),
    pr(4, 'four', { state: 'MERGED' }),
  ],
};
const line = (n: number, head: string, state: string): string =>
  `${n}\tPR ${n}\t${head}\t${state}\t2026-11-0${n}T10:00:00Z\n`;

runCases('pr list', [
  {
    name: '--state closed lists closed and merged pull requests, newest first',
    cite: `${HTTP} listPullRequests; ${TEST} TestPRList_filteringClosed`,
    setup: (r) => r.prepare(mixed),
    args: ['pr', 'list', '--state', 'closed'],
    want: out(line(4, 'four', 'MERGED') + line(3, 'three', 'CLOSED')),
  },
  {
    name: '--state values are matched whatever their case',
    cite: `${FLAGS} isIncluded (strings.EqualFold); ${LIST} listRun (strings.ToLower)`,
    setup: (r) => r.prepare(mixed),
    args: ['pr', 'list', '-s', 'MERGED'],
    want: out(line(4, 'four', 'MERGED')),
  },
  {
    name: '--state all lists every state, drafts shown as DRAFT',
    cite: `${TEST} TestPRList_filtering, TestPRList_nontty; ${LIST} prStateWithDraft`,
    setup: (r) => r.prepare(mixed),
    args: ['pr', 'list', '--state', 'all'],
    want: out(
      line(4, 'four', 'MERGED') +
        line(3, 'three', 'CLOSED') +
        line(2, 'two', 'DRAFT') +
        line(1, 'one', 'OPEN'),
    ),
  },
  {
    name: '--draft=false keeps the pull requests that are not drafts',
    cite: `${TEST} TestPRList_filteringDraft "non-draft"; ${FLAGS} NilBoolFlag`,
    setup: (r) => r.prepare(mixed),
    args: ['pr', 'list', '--draft=false'],
    want: out(line(1, 'one', 'OPEN')),
  },
  {
    name: '--draft keeps drafts only',
    cite: `${TEST} TestPRList_filteringDraft "draft"`,
    setup: (r) => r.prepare(mixed),
    args: ['pr', 'list', '-d'],
    want: out(line(2, 'two', 'DRAFT')),
  },
  {
    name: 'titles are cleaned of excess whitespace in the table, not in --json',
    cite: `${LIST} listRun (text.RemoveExcessiveWhitespace); internal/text/text.go`,
    setup: (r) => r.prepare({ pull_requests: [pr(1, 'one', { title: '  Fix\t the\n\n bug  ' })] }),
    args: ['pr', 'list'],
    want: out(`1\tFix the bug\tone\tOPEN\t2026-11-01T10:00:00Z\n`),
  },
  {
    name: 'an unknown --state value is a flag error with the flags table',
    cite: `${FLAGS} enumValue.Set; pkg/cmd/root/help.go rootUsageFunc; internal/ghcmd/cmd.go printError`,
    args: ['pr', 'list', '--state', 'weird'],
    want: flagErr(
      'invalid argument "weird" for "-s, --state" flag: valid values are {open|closed|merged|all}',
      PR_LIST_USAGE,
    ),
  },
  {
    name: '--limit 0 is a flag error',
    cite: `${TEST} TestPRList_withInvalidLimitFlag`,
    args: ['pr', 'list', '--limit=0'],
    want: flagErr('invalid value for --limit: 0', PR_LIST_USAGE),
  },
  {
    name: "a --limit that is no integer is pflag's parse error",
    cite: 'spf13/pflag v1.0.5 int.go; pkg/cmd/root/help.go rootFlagErrorFunc',
    args: ['pr', 'list', '-L', 'ten'],
    want: flagErr(
      'invalid argument "ten" for "-L, --limit" flag: strconv.ParseInt: parsing "ten": invalid syntax',
      PR_LIST_USAGE,
    ),
  },
  {
    name: 'one stray argument, no value flag given: no quoting hint',
    cite: 'pkg/cmdutil/args.go NoArgsQuoteReminder',
    args: ['pr', 'list', 'open'],
    want: flagErr('unknown argument "open"', PR_LIST_USAGE),
  },
  {
    name: 'several stray arguments are named together, hint after a value flag',
    cite: 'pkg/cmdutil/args.go NoArgsQuoteReminder',
    args: ['pr', 'list', '-B', 'main', 'my', 'branch'],
    want: flagErr(
      'unknown arguments ["my" "branch"]; please quote all values that have spaces',
      PR_LIST_USAGE,
    ),
  },
  {
    name: '--template without --json',
    cite: 'pkg/cmdutil/json_flags.go checkJSONFlags',
    args: ['pr', 'list', '--template', '{{.number}}'],
    want: err('cannot use `--template` without specifying `--json`\n'),
  },
  {
    name: '--web with --json',
    cite: 'pkg/cmdutil/json_flags.go checkJSONFlags',
    args: ['pr', 'list', '--json', 'number', '--web'],
    want: err('cannot use `--web` with `--json`\n'),
  },
  {
    name: 'no pull requests: nothing printed, exit 0',
    cite: `${LIST} listRun (shared.ListNoResults); internal/ghcmd/cmd.go (NoResultsError, not a TTY)`,
    args: ['pr', 'list', '--state', 'merged'],
    want: out(''),
  },
  {
    name: "outside a git repository: git's message kept whole, then gh's newline",
    cite: 'git/errors.go GitError; git/command.go Output; internal/ghcmd/cmd.go printError',
    cwd: (r) => r.root,
    args: ['pr', 'list'],
    want: err(
      'failed to run git: fatal: not a git repository (or any of the parent directories): .git\n\n',
    ),
  },
]);
