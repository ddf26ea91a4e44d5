/**
 * Help pages, as gh 2.78 prints them on stdout when it is not a terminal (exit 0): the texts
 * of each command's cobra definition laid out by pkg/cmd/root/help.go `rootHelpFunc`.
 */
import { expect } from 'chai';
import { GH_278_COMMIT, out, runCases } from './cases.js';
import { TempRepo } from '../support.js';

const HELP = `pkg/cmd/root/help.go rootHelpFunc @${GH_278_COMMIT.slice(0, 8)}`;

const LEARN_MORE =
  'LEARN MORE\n' +
  '  Use `gh <command> <subcommand> --help` for more information about a command.\n' +
  '  Read the manual at https://cli.github.com/manual\n' +
  '  Learn about exit codes using `gh help exit-codes`\n' +
  '  Learn about accessibility experiences using `gh help accessibility`\n\n';

const PR_INHERITED =
  'INHERITED FLAGS\n' +
  '      --help                     Show help for command\n' +
  '  -R, --repo [HOST/]OWNER/REPO   Select another repository using the [HOST/]OWNER/REPO format\n\n';

/** pkg/cmd/pr/create/create.go: Long (heredoc, so a final newline: two blank lines follow). */
const PR_CREATE_HELP = `Create a pull request on GitHub.

Upon success, the URL of the created pull request will be printed.

When the current branch isn't fully pushed to a git remote, a prompt will ask where
to push the branch and offer an option to fork the base repository. Use \`--head\` to
explicitly skip any forking or pushing behavior.

\`--head\` supports \`<user>:<branch>\` syntax to select a head repo owned by \`<user>\`.
Using an organization as the \`<user>\` is currently not supported.
For more information, see <https://github.com/cli/cli/issues/10093>

A prompt will also ask for the title and the body of the pull request. Use \`--title\` and
\`--body\` to skip this, or use \`--fill\` to autofill these values from git commits.
It's important to notice that if the \`--title\` and/or \`--body\` are also provided
alongside \`--fill\`, the values specified by \`--title\` and/or \`--body\` will
take precedence and overwrite any autofilled content.

The base branch for the created PR can be specified using the \`--base\` flag. If not provided,
the value of \`gh-merge-base\` git branch config will be used. If not configured, the repository's
default branch will be used. Run \`git config branch.{current}.gh-merge-base {base}\` to configure
the current branch to use the specified merge base.

Link an issue to the pull request by referencing the issue in the body of the pull
request. If the body text mentions \`Fixes #123\` or \`Closes #123\`, the referenced issue
will automatically get closed when the pull request gets merged.

By default, users with write access to the base repository can push new commits to the
head branch of the pull request. Disable this with \`--no-maintainer-edit\`.

Adding a pull request to projects requires authorization with the \`project\` scope.
To authorize, run \`gh auth refresh -s project\`.


USAGE
  gh pr create [flags]

ALIASES
  gh pr new

FLAGS
  -a, --assignee login       Assign people by their login. Use "@me" to self-assign.
  -B, --base branch          The branch into which you want your code merged
  -b, --body string          Body for the pull request
  -F, --body-file file       Read body text from file (use "-" to read from standard input)
  -d, --draft                Mark pull request as a draft
      --dry-run              Print details instead of creating the PR. May still push git changes.
  -e, --editor               Skip prompts and open the text editor to write the title and body in. The first line is the title and the remaining text is the body.
  -f, --fill                 Use commit info for title and body
      --fill-first           Use first commit info for title and body
      --fill-verbose         Use commits msg+body for description
  -H, --head branch          The branch that contains commits for your pull request (default [current branch])
  -l, --label name           Add labels by name
  -m, --milestone name       Add the pull request to a milestone by name
      --no-maintainer-edit   Disable maintainer's ability to modify pull request
  -p, --project title        Add the pull request to projects by title
      --recover string       Recover input from a failed run of create
  -r, --reviewer handle      Request reviews from people or teams by their handle
  -T, --template file        Template file to use as starting body text
  -t, --title string         Title for the pull request
  -w, --web                  Open the web browser to create a pull request

${PR_INHERITED}EXAMPLES
  $ gh pr create --title "The bug is fixed" --body "Everything works again"
  $ gh pr create --reviewer monalisa,hubot  --reviewer myorg/team-name
  $ gh pr create --project "Roadmap"
  $ gh pr create --base develop --head monalisa:feature
  $ gh pr create --template "pull_request_template.md"

${LEARN_MORE}`;

/** pkg/cmd/pr/pr.go: groups added by cmdutil.AddGroup, commands sorted by name within each. */
const PR_HELP = `Work with GitHub pull requests.

USAGE
  gh pr <command> [flags]

GENERAL COMMANDS
  create:        Create a pull request
  list:          List pull requests in a repository
  status:        Show status of relevant pull requests

TARGETED COMMANDS
  checkout:      Check out a pull request in git
  checks:        Show CI status for a single pull request
  close:         Close a pull request
  comment:       Add a comment to a pull request
  diff:          View changes in a pull request
  edit:          Edit a pull request
  lock:          Lock pull request conversation
  merge:         Merge a pull request
  ready:         Mark a pull request as ready for review
  reopen:        Reopen a pull request
  review:        Add a review to a pull request
  unlock:        Unlock pull request conversation
  update-branch: Update a pull request branch
  view:          View a pull request

FLAGS
  -R, --repo [HOST/]OWNER/REPO   Select another repository using the [HOST/]OWNER/REPO format

INHERITED FLAGS
  --help   Show help for command

ARGUMENTS
  A pull request can be supplied as argument in any of the following formats:
  - by number, e.g. "123";
  - by URL, e.g. "https://github.com/OWNER/REPO/pull/123"; or
  - by the name of its head branch, e.g. "patch-1" or "OWNER:patch-1".

EXAMPLES
  $ gh pr checkout 353
  $ gh pr create --fill
  $ gh pr view --web

${LEARN_MORE}`;

/** pkg/cmd/root/root.go: groups core, actions, (extension: none installed), alias (`co` of gh's default config). */
const ROOT_HELP = `Work seamlessly with GitHub from the command line.

USAGE
  gh <command> <subcommand> [flags]

CORE COMMANDS
  auth:          Authenticate gh and git with GitHub
  browse:        Open repositories, issues, pull requests, and more in the browser
  codespace:     Connect to and manage codespaces
  gist:          Manage gists
  issue:         Manage issues
  org:           Manage organizations
  pr:            Manage pull requests
  project:       Work with GitHub Projects.
  release:       Manage releases
  repo:          Manage repositories

GITHUB ACTIONS COMMANDS
  cache:         Manage GitHub Actions caches
  run:           View details about workflow runs
  workflow:      View details about GitHub Actions workflows

ALIAS COMMANDS
  co:            Alias for "pr checkout"

ADDITIONAL COMMANDS
  alias:         Create command shortcuts
  api:           Make an authenticated GitHub API request
  attestation:   Work with artifact attestations
  completion:    Generate shell completion scripts
  config:        Manage configuration for gh
  extension:     Manage gh extensions
  gpg-key:       Manage GPG keys
  label:         Manage labels
  preview:       Execute previews for gh features
  ruleset:       View info about repo rulesets
  search:        Search for repositories, issues, and pull requests
  secret:        Manage GitHub secrets
  ssh-key:       Manage SSH keys
  status:        Print information about relevant issues, pull requests, and notifications across repositories
  variable:      Manage GitHub Actions variables

HELP TOPICS
  accessibility: Learn about GitHub CLI's accessibility experiences
  actions:       Learn about working with GitHub Actions
  environment:   Environment variables that can be used with gh
  exit-codes:    Exit codes used by gh
  formatting:    Formatting options for JSON data exported from gh
  mintty:        Information about using gh with MinTTY
  reference:     A comprehensive reference of all gh commands

FLAGS
  --help      Show help for command
  --version   Show gh version

EXAMPLES
  $ gh issue create
  $ gh repo clone cli/cli
  $ gh pr checkout 321

${LEARN_MORE}`;

/** pkg/cmd/auth/status/status.go: no examples, only the root's `--help` inherited. */
const AUTH_STATUS_HELP = `Display active account and authentication state on each known GitHub host.

For each host, the authentication state of each known account is tested and any issues are included in the output.
Each host section will indicate the active account, which will be used when targeting that host.
If an account on any host (or only the one given via \`--hostname\`) has authentication issues,
the command will exit with 1 and output to stderr.

To change the active account for a host, see \`gh auth switch\`.


USAGE
  gh auth status [flags]

FLAGS
  -a, --active            Display the active account only
  -h, --hostname string   Check only a specific hostname's auth status
  -t, --show-token        Display the auth token

INHERITED FLAGS
  --help   Show help for command

${LEARN_MORE}`;

runCases('help pages (gh 2.78)', [
  {
    name: 'pr create --help: the whole page on stdout, exit 0, nothing opened',
    cite: `${HELP}; pkg/cmd/pr/create/create.go NewCmdCreate`,
    args: ['pr', 'create', '--help'],
    want: out(PR_CREATE_HELP),
    then: async (r) => {
      expect(await r.lastCall()).to.include({ command: 'help', played: true });
    },
  },
  {
    name: 'pr new -h: the alias, and an undeclared -h stops the parse with the help',
    cite: `${HELP}; spf13/pflag v1.0.5 parseSingleShortArg (ErrHelp)`,
    args: ['pr', 'new', '-h', '--bogus'],
    want: out(PR_CREATE_HELP),
  },
  {
    name: '--help wins over the checks the command would make (no title, a flag not played)',
    cite: `spf13/cobra v1.8.1 command.go execute (help flag before RunE)`,
    args: ['pr', 'create', '--web', '--reviewer', 'x', '--help'],
    want: out(PR_CREATE_HELP),
  },
  {
    name: 'pr --help: the group, its commands by group, its own -R and ARGUMENTS',
    cite: `${HELP}; pkg/cmd/pr/pr.go NewCmdPR`,
    args: ['pr', '--help'],
    want: out(PR_HELP),
  },
  {
    name: 'gh pr alone: a command that does not run shows its help',
    cite: 'spf13/cobra v1.8.1 command.go execute (!Runnable: flag.ErrHelp)',
    args: ['pr'],
    want: out(PR_HELP),
  },
  {
    name: 'gh --help: the root page',
    cite: `${HELP}; pkg/cmd/root/root.go NewCmdRoot; internal/config/config.go defaultConfigStr`,
    args: ['--help'],
    want: out(ROOT_HELP),
  },
  {
    name: 'gh alone and gh help: the root page',
    cite: 'spf13/cobra v1.8.1 command.go InitDefaultHelpCmd',
    args: ['help'],
    want: out(ROOT_HELP),
  },
  {
    name: 'auth status --help: -h is --hostname there, so --help it is',
    cite: `${HELP}; pkg/cmd/auth/status/status.go NewCmdStatus`,
    args: ['auth', 'status', '--help'],
    want: out(AUTH_STATUS_HELP),
  },
]);

describe('gh parity: every played command has its page', function () {
  const pages: [string[], string][] = [
    [
      ['pr', 'list', '--help'],
      'List pull requests in a GitHub repository. By default, this only lists open PRs.\n',
    ],
    [
      ['pr', 'view', '--help'],
      'Display the title, body, and other information about a pull request.\n',
    ],
    [['pr', 'edit', '--help'], 'Edit a pull request.\n'],
    [['pr', 'ready', '--help'], 'Mark a pull request as ready for review.\n'],
    [
      ['repo', 'view', '--help'],
      'Display the description and the README of a GitHub repository.\n',
    ],
    [['repo', '--help'], 'Work with GitHub repositories.\n'],
    [['auth', '--help'], 'Authenticate gh and git with GitHub\n'],
  ];
  let repo: TempRepo;
  before(async () => {
    repo = await TempRepo.create();
  });
  after(async () => {
    await repo.remove();
  });
  for (const [args, first] of pages) {
    it(`gh ${args.join(' ')}: its description, USAGE and LEARN MORE; gh help gives the same`, async () => {
      const r = await repo.gh(args);
      expect(r.exitCode).to.equal(0);
      expect(r.stderr).to.equal('');
      expect(r.stdout.startsWith(first)).to.equal(true);
      expect(r.stdout).to.include('\nUSAGE\n  gh ');
      expect(r.stdout.endsWith(LEARN_MORE)).to.equal(true);
      const viaHelp = await repo.gh(['help', ...args.slice(0, -1)]);
      expect(viaHelp.stdout).to.equal(r.stdout);
    });
  }

  it('pages with --json list the JSON fields and point at gh help formatting', async () => {
    const r = await repo.gh(['pr', 'list', '--help']);
    expect(r.stdout).to.include(
      'For more information about output formatting flags, see `gh help formatting`.\n\nUSAGE\n',
    );
    expect(r.stdout).to.include(
      'JSON FIELDS\n  additions, assignees, author, autoMergeRequest, baseRefName, baseRefOid, body,\n',
    );
    expect(r.stdout).to.include('ALIASES\n  gh pr ls\n\n');
  });
});
