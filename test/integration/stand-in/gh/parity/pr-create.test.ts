import { expect } from 'chai';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { TempRepo } from '../support.js';
import { prUrl } from '../support.js';
import { err, flagErr, out, PR_CREATE_USAGE, runCases } from './cases.js';

const CREATE = 'pkg/cmd/pr/create/create.go';
const TEST = 'pkg/cmd/pr/create/create_test.go';
const RESOLVER = 'pkg/cmd/factory/remote_resolver.go';

/** Two more commits on `feature` (three in all), pushed. */
async function threeCommits(repo: TempRepo): Promise<void> {
  await repo.git('commit', '-q', '--allow-empty', '-m', 'Second step', '-m', 'Why the second.');
  await repo.git('commit', '-q', '--allow-empty', '-m', 'Third step');
  await repo.git('push', '-q', 'origin', 'feature');
}

const headOf = (n: number, head: string) => async (repo: TempRepo) => {
  const got = (await repo.state()).pull_requests.find((p) => p.number === n);
  expect(got?.head).to.equal(head);
};

runCases('pr create', [
  {
    name: 'a blank --title is refused by submitPR, after the flag checks',
    cite: `${CREATE} submitPR`,
    args: ['pr', 'create', '--title', '', '--body', 'b'],
    want: err('pull request title must not be blank\n'),
  },
  {
    name: 'a branch pushed under another name opens with that name as head',
    cite: `${CREATE} determineTrackingBranch, NewCreateContext; ${TEST} "pushed to different branch name"`,
    bare: true,
    setup: async (r) => {
      await r.git('switch', '-q', '-c', 'feature');
      await r.commit('f.txt', 'f\n');
      await r.git('push', '-q', '-u', 'origin', 'feature:other');
    },
    args: ['pr', 'create', '-t', 'T', '-b', 'B'],
    want: out(`${prUrl(1)}\n`),
    then: headOf(1, 'other'),
  },
  {
    name: 'uncommitted changes are counted even when --head is given',
    cite: `${CREATE} NewCreateContext (UncommittedChangeCount); git/client.go`,
    setup: async (r) => {
      await writeFile(path.join(r.work, 'dirty.txt'), 'x');
      await r.git('switch', '-q', 'main');
    },
    args: ['pr', 'create', '-H', 'feature', '-t', 'T', '-b', 'B'],
    want: { stdout: `${prUrl(1)}\n`, stderr: 'Warning: 1 uncommitted change\n', exitCode: 0 },
  },
  {
    name: 'a branch not pushed: the abort is printed with no newline',
    cite: `${CREATE} NewCreateContext (Fprintf, cmdutil.SilentError)`,
    setup: (r) => r.commit('more.txt', 'more\n'),
    args: ['pr', 'create', '-t', 'T', '-b', 'B'],
    want: err(
      'aborted: you must first push the current branch to a remote, or use the --head flag',
    ),
  },
  {
    name: 'on the default branch, pushed: must be on another branch',
    cite: `${CREATE} NewCreateContext`,
    bare: true,
    setup: (r) => r.git('branch', '-q', '-u', 'origin/main').then(() => undefined),
    args: ['pr', 'create', '-t', 'T', '-b', 'B'],
    want: err('must be on a branch named differently than "main"\n'),
  },
  {
    name: 'a remote on another host is not a known GitHub host',
    cite: `${RESOLVER} (FilterByHosts); go-gh pkg/auth/auth.go NormalizeHostname`,
    setup: async (r) => {
      await r.git('remote', 'set-url', 'origin', 'https://gitlab.com/acme/toy.git');
    },
    args: ['pr', 'create', '-t', 'T', '-b', 'B'],
    want: err(
      'none of the git remotes configured for this repository point to a known GitHub host. To tell gh about a new GitHub host, please use `gh auth login`\n',
    ),
  },
  {
    name: 'the same, authenticated by GH_TOKEN: gh asks for GH_HOST',
    cite: `${RESOLVER} (HasEnvToken)`,
    setup: async (r) => {
      await r.git('remote', 'set-url', 'origin', 'git@gitlab.com:acme/toy.git');
    },
    env: { GH_TOKEN: 'gho_abc' },
    args: ['pr', 'list'],
    want: err('set the GH_HOST environment variable to specify which GitHub host to use\n'),
  },
  {
    name: '--fill with one commit: its subject and body',
    cite: `${CREATE} initDefaultTitleBody; ${TEST} "single commit title and body are used"`,
    bare: true,
    setup: async (r) => {
      await r.git('switch', '-q', '-c', 'feature');
      await r.git('commit', '-q', '--allow-empty', '-m', 'Add the list', '-m', 'It lists.');
      await r.git('push', '-q', '-u', 'origin', 'feature');
    },
    args: ['pr', 'create', '--fill', '--dry-run'],
    want: out(
      'Would have created a Pull Request with:\ntitle:\tAdd the list\ndraft:\tfalse\nbase:\tmain\nhead:\tfeature\nmaintainerCanModify:\ttrue\nbody:\nIt lists.\n\n',
    ),
  },
  {
    name: '--fill with several commits: the humanized branch and a list of subjects',
    cite: `${CREATE} initDefaultTitleBody, humanize`,
    setup: async (r) => {
      await r.git('switch', '-q', '-c', 'add_the-list');
      await threeCommits(r);
      await r.git('push', '-q', '-u', 'origin', 'add_the-list');
    },
    args: ['pr', 'create', '--fill', '--base', 'main', '--dry-run'],
    want: out(
      'Would have created a Pull Request with:\ntitle:\tadd the list\ndraft:\tfalse\nbase:\tmain\nhead:\tadd_the-list\nmaintainerCanModify:\ttrue\nbody:\n' +
        '- **change feature.txt**\n- **Second step**\n- **Third step**\n\n',
    ),
  },
  {
    name: '--fill-verbose: subjects with their bodies, indented',
    cite: `${CREATE} initDefaultTitleBody; ${TEST} "fillverbose flag provided"`,
    setup: threeCommits,
    args: ['pr', 'create', '--fill-verbose', '-d', '--dry-run'],
    want: out(
      'Would have created a Pull Request with:\ntitle:\tfeature\ndraft:\ttrue\nbase:\tmain\nhead:\tfeature\nmaintainerCanModify:\ttrue\nbody:\n' +
        '- **change feature.txt**\n  \n\n- **Second step**\n  Why the second.\n  \n\n- **Third step**\n  \n',
    ),
  },
  {
    name: '--fill-first: the first commit, --title still wins',
    cite: `${CREATE} NewIssueState, createRun (TitleProvided); ${TEST} "fill-first flag provided"`,
    setup: threeCommits,
    args: ['pr', 'create', '--fill-first', '-t', 'Mine'],
    want: out(`${prUrl(1)}\n`),
    then: async (r) => {
      expect((await r.state()).pull_requests[0]).to.include({ title: 'Mine', body: '' });
    },
  },
  {
    name: '--fill with nothing between base and head',
    cite: `${CREATE} NewIssueState; git/client.go Commits`,
    bare: true,
    setup: async (r) => {
      await r.git('switch', '-q', '-c', 'empty');
      await r.git('push', '-q', '-u', 'origin', 'empty');
    },
    args: ['pr', 'create', '--fill'],
    want: err(
      'could not compute title or body defaults: could not find any commits between origin/main and empty\n',
    ),
  },
  {
    name: '--fill with --fill-first',
    cite: `${TEST} "fill and fill-first"; ${CREATE} NewCmdCreate`,
    args: ['pr', 'create', '--fill', '--fill-first'],
    want: flagErr('`--fill` is not supported with `--fill-first`', PR_CREATE_USAGE),
  },
  {
    name: '--fill-verbose with --fill',
    cite: `${CREATE} NewCmdCreate`,
    args: ['pr', 'create', '--fill-verbose', '-f'],
    want: flagErr('`--fill-verbose` is not supported with `--fill`', PR_CREATE_USAGE),
  },
  {
    name: '--template with --body',
    cite: `${CREATE} NewCmdCreate; ${TEST} "template and body"`,
    args: ['pr', 'create', '-t', 'T', '-b', 'B', '-T', 'bug.md'],
    want: flagErr(
      '`--template` is not supported when using `--body` or `--body-file`',
      PR_CREATE_USAGE,
    ),
  },
  {
    name: '--draft with --web',
    cite: `${CREATE} NewCmdCreate`,
    args: ['pr', 'create', '--web', '--draft'],
    want: flagErr('the `--draft` flag is not supported with `--web`', PR_CREATE_USAGE),
  },
  {
    name: '--editor when not interactive',
    cite: 'pkg/cmd/pr/shared/survey.go InitEditorMode',
    args: ['pr', 'create', '-e'],
    want: err(
      '--editor or enabled prefer_editor_prompt configuration are not supported in non-tty mode\n',
    ),
  },
  {
    name: 'no title: the must-provide flag error with the table',
    cite: `${CREATE} NewCmdCreate; ${TEST} "only title non-tty", "empty non-tty"`,
    args: ['pr', 'create', '-b', 'B'],
    want: flagErr(
      'must provide `--title` and `--body` (or `--fill` or `fill-first` or `--fillverbose`) when not running interactively',
      PR_CREATE_USAGE,
    ),
  },
  {
    name: '--dry-run prints what it would send and opens nothing',
    cite: `${CREATE} renderPullRequestPlain; ${TEST} "dry-run-nontty-with-default-base"`,
    args: ['pr', 'create', '-t', 'T', '-b', '', '--no-maintainer-edit', '--dry-run'],
    want: out(
      'Would have created a Pull Request with:\ntitle:\tT\ndraft:\tfalse\nbase:\tmain\nhead:\tfeature\nmaintainerCanModify:\tfalse\nbody:\n',
    ),
    then: async (r) => {
      expect(await r.state().catch(() => undefined)).to.equal(undefined);
    },
  },
]);
