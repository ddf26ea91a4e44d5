/**
 * gh's command tree as far as the stand-in needs it: the root and the groups it plays in
 * (`pr`, `repo`, `auth`), each subcommand with its `Short` and its help group, as gh 2.78 adds
 * them (pkg/cmd/root/root.go, pkg/cmd/pr/pr.go, pkg/cmd/repo/repo.go, pkg/cmd/auth/auth.go).
 * The unknown-command answer and the groups' help pages read it.
 */
import { played, type CommandSpec } from '../cli/args.js';
import { HELP_FLAG, REPO_FLAG } from './common.js';

/** A subcommand as its parent lists it. */
export interface SubCommand {
  name: string;
  short: string;
  /** The title of the help group it is listed under; none: gh's default group. */
  group?: string;
  aliases?: string[];
  /** Matched, never listed (cobra's `Hidden`). */
  hidden?: boolean;
}

/** A command with subcommands: its spec (flags, help texts) and its subcommands. */
export interface CommandGroup {
  spec: CommandSpec;
  /** Group titles in the order gh adds them (cobra's `AddGroup`). */
  groups: string[];
  commands: SubCommand[];
  /** The `help:arguments` annotation. */
  arguments?: string;
}

const GENERAL = 'General commands';
const TARGETED = 'Targeted commands';

const PR: CommandGroup = {
  spec: {
    name: 'pr',
    use: 'pr <command>',
    // `--repo` is the group's own (persistent) flag, `--help` the root's.
    flags: [{ ...REPO_FLAG, inherited: false }, HELP_FLAG],
    help: {
      short: 'Manage pull requests',
      long: 'Work with GitHub pull requests.',
      example: '$ gh pr checkout 353\n$ gh pr create --fill\n$ gh pr view --web\n',
    },
  },
  groups: [GENERAL, TARGETED],
  arguments:
    'A pull request can be supplied as argument in any of the following formats:\n' +
    '- by number, e.g. "123";\n' +
    '- by URL, e.g. "https://github.com/OWNER/REPO/pull/123"; or\n' +
    '- by the name of its head branch, e.g. "patch-1" or "OWNER:patch-1".\n',
  commands: [
    { name: 'list', short: 'List pull requests in a repository', group: GENERAL, aliases: ['ls'] },
    { name: 'create', short: 'Create a pull request', group: GENERAL, aliases: ['new'] },
    { name: 'status', short: 'Show status of relevant pull requests', group: GENERAL },
    { name: 'view', short: 'View a pull request', group: TARGETED },
    { name: 'diff', short: 'View changes in a pull request', group: TARGETED },
    { name: 'checkout', short: 'Check out a pull request in git', group: TARGETED },
    { name: 'checks', short: 'Show CI status for a single pull request', group: TARGETED },
    { name: 'review', short: 'Add a review to a pull request', group: TARGETED },
    { name: 'merge', short: 'Merge a pull request', group: TARGETED },
    { name: 'update-branch', short: 'Update a pull request branch', group: TARGETED },
    { name: 'ready', short: 'Mark a pull request as ready for review', group: TARGETED },
    { name: 'comment', short: 'Add a comment to a pull request', group: TARGETED },
    { name: 'close', short: 'Close a pull request', group: TARGETED },
    { name: 'reopen', short: 'Reopen a pull request', group: TARGETED },
    { name: 'edit', short: 'Edit a pull request', group: TARGETED },
    { name: 'lock', short: 'Lock pull request conversation', group: TARGETED },
    { name: 'unlock', short: 'Unlock pull request conversation', group: TARGETED },
  ],
};

const REPO: CommandGroup = {
  spec: {
    name: 'repo',
    use: 'repo <command>',
    flags: [HELP_FLAG],
    help: {
      short: 'Manage repositories',
      long: 'Work with GitHub repositories.',
      example: '$ gh repo create\n$ gh repo clone cli/cli\n$ gh repo view --web\n',
    },
  },
  groups: [GENERAL, TARGETED],
  arguments:
    'A repository can be supplied as an argument in any of the following formats:\n' +
    '- "OWNER/REPO"\n' +
    '- by URL, e.g. "https://github.com/OWNER/REPO"\n',
  commands: [
    {
      name: 'list',
      short: 'List repositories owned by user or organization',
      group: GENERAL,
      aliases: ['ls'],
    },
    { name: 'create', short: 'Create a new repository', group: GENERAL, aliases: ['new'] },
    { name: 'view', short: 'View a repository', group: TARGETED },
    { name: 'clone', short: 'Clone a repository locally', group: TARGETED },
    { name: 'fork', short: 'Create a fork of a repository', group: TARGETED },
    {
      name: 'set-default',
      short: 'Configure default repository for this directory',
      group: TARGETED,
    },
    { name: 'sync', short: 'Sync a repository', group: TARGETED },
    { name: 'edit', short: 'Edit repository settings', group: TARGETED },
    { name: 'deploy-key', short: 'Manage deploy keys in a repository', group: TARGETED },
    { name: 'license', short: 'Explore repository licenses', group: TARGETED },
    {
      name: 'gitignore',
      short: 'List and view available repository gitignore templates',
      group: TARGETED,
    },
    { name: 'rename', short: 'Rename a repository', group: TARGETED },
    { name: 'archive', short: 'Archive a repository', group: TARGETED },
    { name: 'unarchive', short: 'Unarchive a repository', group: TARGETED },
    { name: 'delete', short: 'Delete a repository', group: TARGETED },
    { name: 'credits', short: 'View credits for a repository', group: TARGETED, hidden: true },
    {
      name: 'garden',
      short: 'Explore a git repository as a garden',
      group: TARGETED,
      hidden: true,
    },
    { name: 'autolink', short: 'Manage autolink references', group: TARGETED },
  ],
};

const AUTH: CommandGroup = {
  spec: {
    name: 'auth',
    use: 'auth <command>',
    flags: [HELP_FLAG],
    help: { short: 'Authenticate gh and git with GitHub' },
  },
  groups: [],
  commands: [
    { name: 'login', short: 'Log in to a GitHub account' },
    { name: 'logout', short: 'Log out of a GitHub account' },
    {
      name: 'status',
      short: 'Display active account and authentication state on each known GitHub host',
    },
    { name: 'refresh', short: 'Refresh stored authentication credentials' },
    { name: 'git-credential', short: 'Implements git credential helper protocol', hidden: true },
    { name: 'setup-git', short: 'Setup git with GitHub CLI' },
    { name: 'token', short: 'Print the authentication token gh uses for a hostname and account' },
    { name: 'switch', short: 'Switch active GitHub account' },
  ],
};

const CORE = 'Core commands';
const ACTIONS = 'GitHub Actions commands';
const EXTENSION = 'Extension commands';
const ALIAS = 'Alias commands';

/**
 * The root. Its `co` alias is gh's default configuration's (`co: pr checkout`), which a machine
 * with no gh configuration has; no extension is installed. Help topics are hidden commands.
 */
export const ROOT: CommandGroup = {
  spec: {
    name: 'gh',
    use: '<command> <subcommand>',
    flags: [
      { ...HELP_FLAG, inherited: false },
      played('version', 'bool', undefined, 'Show gh version'),
    ],
    help: {
      short: 'GitHub CLI',
      long: 'Work seamlessly with GitHub from the command line.',
      example: '$ gh issue create\n$ gh repo clone cli/cli\n$ gh pr checkout 321\n',
    },
  },
  groups: [CORE, ACTIONS, EXTENSION, ALIAS],
  commands: [
    { name: 'auth', short: AUTH.spec.help?.short ?? '', group: CORE },
    {
      name: 'browse',
      short: 'Open repositories, issues, pull requests, and more in the browser',
      group: CORE,
    },
    { name: 'codespace', short: 'Connect to and manage codespaces', group: CORE, aliases: ['cs'] },
    { name: 'gist', short: 'Manage gists', group: CORE },
    { name: 'issue', short: 'Manage issues', group: CORE },
    { name: 'org', short: 'Manage organizations', group: CORE },
    { name: 'pr', short: PR.spec.help?.short ?? '', group: CORE },
    { name: 'project', short: 'Work with GitHub Projects.', group: CORE },
    { name: 'release', short: 'Manage releases', group: CORE },
    { name: 'repo', short: REPO.spec.help?.short ?? '', group: CORE },
    { name: 'cache', short: 'Manage GitHub Actions caches', group: ACTIONS },
    { name: 'run', short: 'View details about workflow runs', group: ACTIONS },
    { name: 'workflow', short: 'View details about GitHub Actions workflows', group: ACTIONS },
    { name: 'co', short: 'Alias for "pr checkout"', group: ALIAS },
    { name: 'alias', short: 'Create command shortcuts' },
    { name: 'api', short: 'Make an authenticated GitHub API request' },
    { name: 'attestation', short: 'Work with artifact attestations', aliases: ['at'] },
    { name: 'completion', short: 'Generate shell completion scripts' },
    { name: 'config', short: 'Manage configuration for gh' },
    { name: 'extension', short: 'Manage gh extensions', aliases: ['extensions', 'ext'] },
    { name: 'gpg-key', short: 'Manage GPG keys' },
    { name: 'label', short: 'Manage labels' },
    { name: 'preview', short: 'Execute previews for gh features' },
    { name: 'ruleset', short: 'View info about repo rulesets', aliases: ['rs'] },
    { name: 'search', short: 'Search for repositories, issues, and pull requests' },
    { name: 'secret', short: 'Manage GitHub secrets' },
    { name: 'ssh-key', short: 'Manage SSH keys' },
    {
      name: 'status',
      short:
        'Print information about relevant issues, pull requests, and notifications across repositories',
    },
    { name: 'variable', short: 'Manage GitHub Actions variables' },
    { name: 'version', short: '', hidden: true },
    {
      name: 'accessibility',
      short: "Learn about GitHub CLI's accessibility experiences",
      aliases: ['a11y'],
      hidden: true,
    },
    { name: 'actions', short: 'Learn about working with GitHub Actions', hidden: true },
    { name: 'credits', short: 'View credits for this tool', hidden: true },
  ],
};

/**
 * The root's help topics (pkg/cmd/root/help_topic.go), listed under `HELP TOPICS` with the
 * hidden `accessibility` and `actions` commands.
 */
export const HELP_TOPICS: { name: string; short: string }[] = [
  { name: 'mintty', short: 'Information about using gh with MinTTY' },
  { name: 'environment', short: 'Environment variables that can be used with gh' },
  { name: 'reference', short: 'A comprehensive reference of all gh commands' },
  { name: 'formatting', short: 'Formatting options for JSON data exported from gh' },
  { name: 'exit-codes', short: 'Exit codes used by gh' },
];

/** The groups the stand-in plays in, by name. */
export const GROUPS: Record<string, CommandGroup> = { pr: PR, repo: REPO, auth: AUTH };
