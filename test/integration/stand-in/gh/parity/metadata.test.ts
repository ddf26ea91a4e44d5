/**
 * What agents add to the pull-request steps: `-R/--repo`, labels, assignees, `pr view
 * --comments`, `auth status -a/--hostname`, as gh 2.78 answers them (cli/cli @ GH_278_COMMIT).
 * The only repository in a run is the origin's (acme/toy here), and the only assignable user
 * the logged-in one (evalrig).
 */
import { expect } from 'chai';
import {
  err,
  flagErr,
  GH_278_COMMIT,
  out,
  pr,
  PR_READY_USAGE,
  PR_VIEW_USAGE,
  runCases,
} from './cases.js';

const AT = `@${GH_278_COMMIT.slice(0, 8)}`;
const OVERRIDE = `pkg/cmdutil/repo_override.go ${AT}; go-gh pkg/repository Parse`;
const CREATE = `pkg/cmd/pr/create/create.go ${AT}`;
const PARAMS = `pkg/cmd/pr/shared/params.go AddMetadataToIssueParams ${AT}; api/queries_repo.go`;
const EDITABLE = `pkg/cmd/pr/shared/editable_http.go UpdateIssue ${AT}`;
const STATUS = `pkg/cmd/auth/status/status.go statusRun ${AT}`;
const UNRESOLVED = (n: string): string =>
  `GraphQL: Could not resolve to a Repository with the name '${n}'. (repository)\n`;

const opened = async (r: { gh: (a: string[]) => Promise<unknown> }): Promise<void> => {
  await r.gh(['pr', 'create', '-t', 'T', '-b', 'B']);
};

runCases('-R/--repo', [
  {
    name: "-R naming the origin's repository plays as without it",
    cite: OVERRIDE,
    setup: async (r) => r.prepare({ pull_requests: [pr(1, 'feature')] }),
    args: ['pr', 'list', '-R', 'acme/toy'],
    want: out('1\tPR 1\tfeature\tOPEN\t2026-11-01T10:00:00Z\n'),
  },
  {
    name: 'HOST/OWNER/REPO and a URL name it too, in any case',
    cite: `${OVERRIDE} (ParseWithHost: URL, three parts; GitHub matches names regardless of case)`,
    setup: async (r) => r.prepare({ pull_requests: [pr(1, 'feature')] }),
    args: [
      'pr',
      'view',
      '1',
      '--repo',
      'https://github.com/ACME/Toy',
      '--json',
      'title',
      '-q',
      '.title',
    ],
    want: out('PR 1\n'),
  },
  {
    name: 'another repository: GitHub cannot resolve it',
    cite: `${OVERRIDE}; api/client.go GraphQLError`,
    args: ['pr', 'list', '-R', 'octo/other'],
    want: err(UNRESOLVED('octo/other')),
  },
  {
    name: 'pr create into another repository: refused before anything is pushed or opened',
    cite: `${CREATE} NewCreateContext (ResolveRemotesToRepos, api.GitHubRepo)`,
    args: ['pr', 'create', '-t', 'T', '-b', 'B', '-R', 'github.com/octo/other'],
    want: err(UNRESOLVED('octo/other')),
    then: async (r) => {
      expect(await r.stateOrNull()).to.equal(null);
    },
  },
  {
    name: 'a value that is not a repository',
    cite: `${OVERRIDE}; go-gh repository_test.go "too few elements"`,
    args: ['pr', 'list', '-R', 'toy'],
    want: err('expected the "[HOST/]OWNER/REPO" format, got "toy"\n'),
  },
  {
    name: 'pr view with -R needs an argument',
    cite: `pkg/cmd/pr/view/view.go NewCmdView ${AT}`,
    args: ['pr', 'view', '-R', 'acme/toy'],
    want: flagErr('argument required when using the --repo flag', PR_VIEW_USAGE),
  },
  {
    name: 'pr ready with -R needs an argument',
    cite: `pkg/cmd/pr/ready/ready.go NewCmdReady ${AT}`,
    args: ['pr', 'ready', '-R', 'acme/toy'],
    want: flagErr('argument required when using the --repo flag', PR_READY_USAGE),
  },
]);

runCases('labels and assignees', [
  {
    name: 'pr create --label (any case) and --assignee @me: kept in the state',
    cite: `${CREATE} NewIssueState (MeReplacer); ${PARAMS} LabelsToIDs (EqualFold)`,
    args: ['pr', 'create', '-t', 'T', '-b', 'B', '-l', 'BUG,help wanted', '-a', '@me'],
    want: out('https://github.com/acme/toy/pull/1\n'),
    then: async (r) => {
      expect((await r.state()).pull_requests[0]).to.deep.include({
        labels: ['bug', 'help wanted'],
        assignees: ['evalrig'],
      });
    },
  },
  {
    name: 'an unknown label is refused, nothing opened',
    cite: `${PARAMS} ("could not add label")`,
    args: ['pr', 'create', '-t', 'T', '-b', 'B', '--label', 'needs-review'],
    want: err("could not add label: 'needs-review' not found\n"),
    then: async (r) => {
      expect(await r.stateOrNull()).to.equal(null);
    },
  },
  {
    name: 'a label the state names (seeded from the eval) is known',
    cite: `${PARAMS} LabelsToIDs`,
    setup: async (r) => r.prepare({ labels: [{ name: 'needs-review' }], pull_requests: [] }),
    args: ['pr', 'create', '-t', 'T', '-b', 'B', '--label', 'needs-review', '--dry-run'],
    want: out(
      'Would have created a Pull Request with:\ntitle:\tT\ndraft:\tfalse\nbase:\tmain\nhead:\tfeature\n' +
        'labels:\tneeds-review\nmaintainerCanModify:\ttrue\nbody:\nB\n',
    ),
  },
  {
    name: 'assignees are checked before labels; a login that cannot be assigned',
    cite: `${PARAMS} MembersToIDs ("could not assign user")`,
    args: ['pr', 'create', '-t', 'T', '-b', 'B', '-a', 'octocat', '-l', 'nope'],
    want: err("could not assign user: 'octocat' not found\n"),
  },
  {
    name: 'the dry run lists labels as given and assignees with @me replaced',
    cite: `${CREATE} renderPullRequestPlain`,
    args: ['pr', 'create', '-t', 'T', '-b', '', '-l', 'Bug', '-a', '@me', '--dry-run'],
    want: out(
      'Would have created a Pull Request with:\ntitle:\tT\ndraft:\tfalse\nbase:\tmain\nhead:\tfeature\n' +
        'labels:\tBug\nassignees:\tevalrig\nmaintainerCanModify:\ttrue\nbody:\n',
    ),
  },
  {
    name: 'pr edit --add-label and --add-assignee @me',
    cite: `${EDITABLE}; pkg/cmd/pr/shared/editable.go AssigneeIds`,
    setup: opened,
    args: ['pr', 'edit', '--add-label', 'enhancement', '--add-assignee', '@me'],
    want: out('https://github.com/acme/toy/pull/1\n'),
    then: async (r) => {
      const v = await r.gh(['pr', 'view', '--json', 'labels,assignees']);
      expect(v.stdout).to.equal(
        '{"assignees":[{"id":"U_stand_in_evalrig","login":"evalrig","name":""}],' +
          '"labels":[{"color":"a2eeef","description":"New feature or request","id":"LA_stand_in_enhancement","name":"enhancement"}]}\n',
      );
    },
  },
  {
    name: 'pr edit with an unknown label: refused, the other fields still edited',
    cite: `${EDITABLE} (labels in their own request, errgroup)`,
    setup: opened,
    args: ['pr', 'edit', '--add-label', 'nope', '--title', 'New'],
    want: err("'nope' not found\n"),
    then: async (r) => {
      expect((await r.state()).pull_requests[0]?.title).to.equal('New');
    },
  },
  {
    name: 'pr edit with an assignee who cannot be assigned: nothing else of that request',
    cite: `${EDITABLE} (replaceActorAssigneesForEditable before replaceIssueFields)`,
    setup: opened,
    args: ['pr', 'edit', '--add-assignee', 'octocat', '--title', 'New'],
    want: err("'octocat' not found\n"),
    then: async (r) => {
      expect((await r.state()).pull_requests[0]?.title).to.equal('T');
    },
  },
  {
    name: 'pr view shows labels sorted regardless of case, assignees in order',
    cite: `pkg/cmd/pr/view/view.go printRawPrPreview, prLabelList ${AT}`,
    setup: async (r) =>
      r.prepare({
        labels: [{ name: 'Zeta', color: '00FF00' }],
        pull_requests: [
          pr(1, 'feature', { labels: ['wontfix', 'zeta', 'Bug'], assignees: ['evalrig'] }),
        ],
      }),
    args: ['pr', 'view', '1', '--json', 'labels', '-q', '[.labels[].name]'],
    // The repository's spelling of each, in the pull request's order.
    want: out('["wontfix","Zeta","bug"]\n'),
    then: async (r) => {
      const v = await r.gh(['pr', 'view', '1']);
      expect(v.stdout).to.include('labels:\tbug, wontfix, Zeta\nassignees:\tevalrig\n');
    },
  },
  {
    name: 'pr view --comments, not a terminal: the comments only, and there are none',
    cite: `pkg/cmd/pr/view/view.go viewRun; pkg/cmd/pr/shared/comments.go RawCommentList ${AT}`,
    setup: opened,
    args: ['pr', 'view', '--comments'],
    want: out(''),
  },
]);

const STATUS_OUT =
  'github.com\n  ✓ Logged in to github.com account evalrig (keyring)\n  - Active account: true\n' +
  "  - Git operations protocol: https\n  - Token: gho_************************************\n  - Token scopes: 'gist', 'read:org', 'repo', 'workflow'\n";

runCases('auth status -a, --hostname', [
  {
    name: '-a: the active account only, which is the only one',
    cite: STATUS,
    args: ['auth', 'status', '-a'],
    want: out(STATUS_OUT),
  },
  {
    name: '--hostname github.com',
    cite: STATUS,
    args: ['auth', 'status', '--hostname', 'github.com', '--active'],
    want: out(STATUS_OUT),
  },
  {
    name: '--hostname of a host not logged in to',
    cite: `${STATUS} (cmdutil.SilentError)`,
    args: ['auth', 'status', '-h', 'ghe.example.com'],
    want: err('You are not logged into any accounts on ghe.example.com\n'),
  },
]);
