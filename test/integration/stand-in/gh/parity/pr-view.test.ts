import {
  err,
  flagErr,
  out,
  pr,
  PR_EDIT_USAGE,
  PR_READY_USAGE,
  PR_VIEW_USAGE,
  REPO_VIEW_USAGE,
  runCases,
} from './cases.js';

const FINDER = 'pkg/cmd/pr/shared/finder.go';
const FINDER_TEST = 'pkg/cmd/pr/shared/finder_test.go';
const VIEW = 'pkg/cmd/pr/view/view.go';

const viewOf = (n: number, title: string, state: string, additions: number): string =>
  `title:\t${title}\nstate:\t${state}\nauthor:\tevalrig\nlabels:\t\nassignees:\t\nreviewers:\t\nprojects:\t\nmilestone:\t\n` +
  `number:\t${n}\nurl:\thttps://github.com/acme/toy/pull/${n}\nadditions:\t${additions}\ndeletions:\t0\nauto-merge:\tdisabled\n--\n\n`;

runCases('pr view, edit, ready', [
  {
    name: 'on the default branch a closed pull request of that branch is skipped',
    cite: `${FINDER} findForBranch; ${FINDER_TEST} "current branch with merged pr"`,
    bare: true,
    setup: (r) => r.prepare({ pull_requests: [pr(1, 'main', { state: 'MERGED' })] }),
    args: ['pr', 'view'],
    want: err('no pull requests found for branch "main"\n'),
  },
  {
    name: 'on another branch its closed pull request is shown',
    cite: `${FINDER} findForBranch; ${VIEW} printRawPrPreview`,
    setup: (r) =>
      r.prepare({ pull_requests: [pr(1, 'feature', { state: 'CLOSED', title: 'Old' })] }),
    args: ['pr', 'view'],
    // feature.txt, one line, is the branch's change against main (git diff base...head).
    want: out(viewOf(1, 'Old', 'CLOSED', 1)),
  },
  {
    name: '--json number of a number is answered without a lookup',
    cite: `${FINDER} Find (numberFieldOnly); ${FINDER_TEST} "number only"`,
    args: ['pr', 'view', '42', '--json', 'number'],
    want: out('{"number":42}\n'),
  },
  {
    name: '--json number of a URL, any repository, without a lookup',
    cite: `${FINDER} Find, parseURL`,
    args: [
      'pr',
      'view',
      'https://github.com/other/repo/pull/7',
      '--json',
      'number',
      '-q',
      '.number',
    ],
    want: out('7\n'),
  },
  {
    name: "OWNER:branch names a fork's head, which no pull request of the record has",
    cite: `${FINDER} findForBranch (HeadLabel); api/queries_pr.go HeadLabel`,
    setup: (r) => r.prepare({ pull_requests: [pr(1, 'feature')] }),
    args: ['pr', 'view', 'acme:feature', '--json', 'title'],
    want: err('no pull requests found for branch "acme:feature"\n'),
  },
  {
    name: 'the current branch tracking another name is looked up by that name',
    cite: `${FINDER} parseCurrentBranch; ${FINDER_TEST} "current branch with upstream configuration"`,
    bare: true,
    setup: async (r) => {
      await r.git('switch', '-q', '-c', 'local');
      await r.commit('l.txt', 'l\n');
      await r.git('push', '-q', '-u', 'origin', 'local:remote-name');
      await r.prepare({ pull_requests: [pr(3, 'remote-name')] });
    },
    args: ['pr', 'view', '--json', 'number,headRefName'],
    want: out('{"headRefName":"remote-name","number":3}\n'),
  },
  {
    name: 'a branch merging refs/pull/N/head stands for PR N',
    cite: `${FINDER} parseCurrentBranch; ${FINDER_TEST} "current branch made by pr checkout"`,
    setup: (r) => r.git('config', 'branch.feature.merge', 'refs/pull/9/head').then(() => undefined),
    args: ['pr', 'view', '--json', 'number'],
    want: out('{"number":9}\n'),
  },
  {
    name: "two arguments: cobra's plain error, no usage",
    cite: `${VIEW} (cobra.MaximumNArgs); spf13/cobra v1.8.1 args.go`,
    args: ['pr', 'view', '1', '2'],
    want: err('accepts at most 1 arg(s), received 2\n'),
  },
  {
    name: 'pr ready with a flag it lacks: the one-flag table',
    cite: 'pkg/cmd/pr/ready/ready.go; pkg/cmd/root/help.go rootUsageFunc, dedent',
    args: ['pr', 'ready', '--draft'],
    want: flagErr('unknown flag: --draft', PR_READY_USAGE),
  },
  {
    name: 'pr view with an unknown flag: its table, JSON flags included',
    cite: `${VIEW} NewCmdView; pkg/cmdutil/json_flags.go AddJSONFlags; pkg/cmd/root/help.go rootUsageFunc`,
    args: ['pr', 'view', '--bogus'],
    want: flagErr('unknown flag: --bogus', PR_VIEW_USAGE),
  },
  {
    name: 'pr view --json with no value lists the fields, no usage',
    // api/query_builder.go PullRequestFields, plus baseRefOid and closingIssuesReferences that
    // later releases added (the stand-in answers as 2.78; see its README).
    cite: 'pkg/cmdutil/json_flags.go AddJSONFlags (SetFlagErrorFunc); api/query_builder.go',
    args: ['pr', 'view', '--json'],
    want: err(
      'Specify one or more comma-separated fields for `--json`:\n  ' +
        [
          'additions',
          'assignees',
          'author',
          'autoMergeRequest',
          'baseRefName',
          'baseRefOid',
          'body',
          'changedFiles',
          'closed',
          'closedAt',
          'closingIssuesReferences',
          'comments',
          'commits',
          'createdAt',
          'deletions',
          'files',
          'fullDatabaseId',
          'headRefName',
          'headRefOid',
          'headRepository',
          'headRepositoryOwner',
          'id',
          'isCrossRepository',
          'isDraft',
          'labels',
          'latestReviews',
          'maintainerCanModify',
          'mergeCommit',
          'mergeStateStatus',
          'mergeable',
          'mergedAt',
          'mergedBy',
          'milestone',
          'number',
          'potentialMergeCommit',
          'projectCards',
          'projectItems',
          'reactionGroups',
          'reviewDecision',
          'reviewRequests',
          'reviews',
          'state',
          'statusCheckRollup',
          'title',
          'updatedAt',
          'url',
        ].join('\n  ') +
        '\n',
    ),
  },
  {
    name: 'pr edit with --body and --body-file: its table',
    cite: 'pkg/cmd/pr/edit/edit.go (cmdutil.MutuallyExclusive); pkg/cmdutil/errors.go',
    args: ['pr', 'edit', '1', '-b', 'x', '-F', 'b.md'],
    want: flagErr('specify only one of `--body` or `--body-file`', PR_EDIT_USAGE),
  },
  {
    name: 'pr edit with no edit flag',
    cite: 'pkg/cmd/pr/edit/edit.go @2.78 (FlagErrorf: its `--tile` typo, fixed after 2.78)',
    args: ['pr', 'edit', '1'],
    want: flagErr(
      '--tile, --body, --reviewer, --assignee, --label, --project, or --milestone required when not running interactively',
      PR_EDIT_USAGE,
    ),
  },
  {
    name: 'repo view with a bad flag: its table',
    cite: 'pkg/cmd/repo/view/view.go NewCmdView',
    args: ['repo', 'view', '-x'],
    want: flagErr("unknown shorthand flag: 'x' in -x", REPO_VIEW_USAGE),
  },
  {
    name: 'pr edit --body-file "" counts as no body file',
    cite: 'pkg/cmd/pr/edit/edit.go (bodyFile != "")',
    setup: (r) => r.prepare({ pull_requests: [pr(1, 'feature')] }),
    args: ['pr', 'edit', '1', '-b', 'x', '-F', ''],
    want: out('https://github.com/acme/toy/pull/1\n'),
  },
]);
