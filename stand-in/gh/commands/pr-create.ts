import {
  bool,
  flagError,
  given,
  list,
  noArguments,
  played,
  str,
  type ParsedArgs,
} from '../cli/args.js';
import type { Ctx } from '../context.js';
import { GhError, NotPlayedError } from '../errors.js';
import { configValue, type RepoContext } from '../git/index.js';
import { branchOrFail, PR_COMMON_FLAGS, readBodyFile } from './common.js';
import { fillTitleBody } from './fill.js';
import { replaceMe, resolveAssignees, resolveLabels } from './metadata.js';
import { baseRepo } from './repo-override.js';
import type { Answer, Command } from './types.js';
import type { State } from '../store/index.js';

const spec: Command['spec'] = {
  name: 'pr create',
  use: 'create',
  help: {
    short: 'Create a pull request',
    long: `Create a pull request on GitHub.

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
`,
    example: `$ gh pr create --title "The bug is fixed" --body "Everything works again"
$ gh pr create --reviewer monalisa,hubot  --reviewer myorg/team-name
$ gh pr create --project "Roadmap"
$ gh pr create --base develop --head monalisa:feature
$ gh pr create --template "pull_request_template.md"
`,
    aliases: ['new'],
  },
  flags: [
    played('draft', 'bool', 'd', 'Mark pull request as a draft'),
    played('title', 'string', 't', 'Title for the pull request'),
    played('body', 'string', 'b', 'Body for the pull request'),
    played(
      'body-file',
      'string',
      'F',
      'Read body text from `file` (use "-" to read from standard input)',
    ),
    played('base', 'string', 'B', 'The `branch` into which you want your code merged'),
    played(
      'head',
      'string',
      'H',
      'The `branch` that contains commits for your pull request (default [current branch])',
    ),
    // Played for the errors gh gives before any work; otherwise refused (see run below).
    played(
      'editor',
      'bool',
      'e',
      'Skip prompts and open the text editor to write the title and body in. The first line is the title and the remaining text is the body.',
    ),
    played('web', 'bool', 'w', 'Open the web browser to create a pull request'),
    played('fill-verbose', 'bool', undefined, 'Use commits msg+body for description'),
    played('fill', 'bool', 'f', 'Use commit info for title and body'),
    played('fill-first', 'bool', undefined, 'Use first commit info for title and body'),
    played(
      'reviewer',
      'stringSlice',
      'r',
      'Request reviews from people or teams by their `handle`',
    ),
    played(
      'assignee',
      'stringSlice',
      'a',
      'Assign people by their `login`. Use "@me" to self-assign.',
    ),
    played('label', 'stringSlice', 'l', 'Add labels by `name`'),
    played('project', 'stringSlice', 'p', 'Add the pull request to projects by `title`'),
    played('milestone', 'string', 'm', 'Add the pull request to a milestone by `name`'),
    played(
      'no-maintainer-edit',
      'bool',
      undefined,
      "Disable maintainer's ability to modify pull request",
    ),
    played('recover', 'string', undefined, 'Recover input from a failed run of create'),
    played('template', 'string', 'T', 'Template `file` to use as starting body text'),
    played(
      'dry-run',
      'bool',
      undefined,
      'Print details instead of creating the PR. May still push git changes.',
    ),
    ...PR_COMMON_FLAGS,
  ],
};

/** The checks of gh's `RunE` (pkg/cmd/pr/create/create.go), in its order. */
function checkFlags(ctx: Ctx, args: ParsedArgs): { body: string | undefined } {
  const web = bool(args, 'web');
  const fill = bool(args, 'fill');
  const fillFirst = bool(args, 'fill-first');
  const fillVerbose = bool(args, 'fill-verbose');
  const fail = (m: string): never => {
    throw flagError(spec, m);
  };
  if ((str(args, 'recover') ?? '') !== '') {
    fail('`--recover` only supported when running interactively');
  }
  if (bool(args, 'draft') && web) fail('the `--draft` flag is not supported with `--web`');
  if (str(args, 'reviewer') && web) fail('the `--reviewer` flag is not supported with `--web`');
  if (given(args, 'no-maintainer-edit') && web) {
    fail('the `--no-maintainer-edit` flag is not supported with `--web`');
  }
  if (fill && fillFirst) fail('`--fill` is not supported with `--fill-first`');
  if (fillVerbose && fillFirst) fail('`--fill-verbose` is not supported with `--fill-first`');
  if (fillVerbose && fill) fail('`--fill-verbose` is not supported with `--fill`');
  if (bool(args, 'editor') && web) fail('specify only one of `--editor` or `--web`');
  if (bool(args, 'editor')) {
    throw new GhError(
      '--editor or enabled prefer_editor_prompt configuration are not supported in non-tty mode',
    );
  }
  let body = str(args, 'body');
  const bodyFile = str(args, 'body-file') ?? '';
  if (bodyFile !== '') body = readBodyFile(ctx, bodyFile);
  if ((str(args, 'template') ?? '') !== '' && body !== undefined) {
    fail('`--template` is not supported when using `--body` or `--body-file`');
  }
  if (
    !web &&
    !(fillVerbose || fill || fillFirst) &&
    (!given(args, 'title') || body === undefined)
  ) {
    fail(
      'must provide `--title` and `--body` (or `--fill` or `fill-first` or `--fillverbose`) when not running interactively',
    );
  }
  if (bool(args, 'dry-run') && web) fail('`--dry-run` is not supported when using `--web`');
  return { body };
}

/**
 * `gh pr create` (alias `new`): opens a pull request for the current branch (or `--head`)
 * into `--base`, the branch's `gh-merge-base`, or the remote's default branch. Prints the URL.
 */
export const prCreate: Command = {
  spec,
  run(ctx, args) {
    noArguments(spec, args);
    const { body: givenBody } = checkFlags(ctx, args);
    if (bool(args, 'web')) throw new NotPlayedError('"gh pr create --web"');
    for (const meta of ['reviewer', 'project', 'milestone']) {
      if (given(args, meta)) throw new NotPlayedError(`"gh pr create --${meta}"`);
    }
    if (givenBody !== undefined) ctx.notes.description = givenBody;

    const repo = ctx.repo();
    baseRepo(ctx, args); // -R names the origin's repository, or GitHub cannot resolve it
    const base0 = repo.baseRemote();
    const headFlag = str(args, 'head') ?? '';
    let headBranch: string;
    let label: string;
    if (headFlag === '') {
      headBranch = branchOrFail(repo, 'could not determine the current branch: ');
      label = headBranch;
    } else {
      if (headFlag.includes(':')) {
        throw new NotPlayedError(`"gh pr create --head ${headFlag}" (a head named with its owner)`);
      }
      headBranch = label = headFlag;
    }
    // gh warns whether or not --head is given (NewCreateContext).
    const status = repo.git(['status', '--porcelain']);
    const count = status.stdout.split('\n').filter((l) => l !== '').length;
    if (status.status === 0 && count > 0) {
      ctx.warnings.push(`Warning: ${count} uncommitted change${count === 1 ? '' : 's'}\n`);
    }
    let headRepoKnown = false;
    if (headFlag === '') {
      const pushedTo = trackingBranch(repo, headBranch);
      if (pushedTo === undefined) {
        // gh prints it without a newline and exits 1 (cmdutil.SilentError).
        return {
          stderr:
            'aborted: you must first push the current branch to a remote, or use the --head flag',
          exitCode: 1,
        };
      }
      label = pushedTo.label;
      headRepoKnown = pushedTo.known;
    }
    const base =
      str(args, 'base') ||
      configValue(repo.config(), `branch.${headBranch}.gh-merge-base`) ||
      repo.defaultBranch();
    if (headRepoKnown && headBranch === base) {
      throw new GhError(`must be on a branch named differently than "${base}"`);
    }

    let title = '';
    let body = '';
    if (bool(args, 'fill') || bool(args, 'fill-first') || bool(args, 'fill-verbose')) {
      const filled = fillTitleBody(repo, `${base0.name}/${base}`, headBranch, {
        first: bool(args, 'fill-first'),
        verbose: bool(args, 'fill-verbose'),
      });
      ({ title, body } = filled);
    }
    if (given(args, 'title')) title = str(args, 'title') ?? '';
    if (givenBody !== undefined) body = givenBody;
    ctx.notes.description = body;
    return submit(ctx, args, { repo, label, base, title, body });
  },
};

interface Submission {
  repo: RepoContext;
  label: string;
  base: string;
  title: string;
  body: string;
}

/** The existing-PR check, then gh's `submitPR`: blank title, dry run, the API's own refusals. */
function submit(ctx: Ctx, args: ParsedArgs, s: Submission): Answer {
  const { repo, label: head, base, title, body } = s;
  const name = repo.repoName();
  const store = ctx.store();
  const state = store.read();
  const existing = state.pull_requests.find(
    (p) => p.state === 'OPEN' && p.head === head && p.base === base,
  );
  if (existing) {
    throw new GhError(
      `a pull request for branch "${head}" into branch "${base}" already exists:\n${existing.url}`,
    );
  }
  if (title === '') throw new GhError('pull request title must not be blank');
  const meta = metadata(ctx, args, state);
  const draft = bool(args, 'draft');
  if (bool(args, 'dry-run')) {
    return {
      stdout:
        'Would have created a Pull Request with:\n' +
        `title:\t${title}\ndraft:\t${draft}\nbase:\t${base}\nhead:\t${head}\n` +
        (meta.given.labels.length > 0 ? `labels:\t${meta.given.labels.join(', ')}\n` : '') +
        (meta.given.assignees.length > 0
          ? `assignees:\t${meta.given.assignees.join(', ')}\n`
          : '') +
        `maintainerCanModify:\t${!bool(args, 'no-maintainer-edit')}\nbody:\n` +
        (body.length > 0 ? `${body}\n` : ''),
    };
  }

  const remoteHead = repo.remoteBranchCommit(head);
  const remoteBase = repo.remoteBranchCommit(base);
  let apiError: string | undefined;
  if (remoteHead === undefined) {
    apiError = `Head sha can't be blank, Base sha can't be blank, No commits between ${base} and ${head}, Head ref must be a branch`;
  } else if (remoteBase === undefined) {
    apiError = `Base ref must be a branch`;
  } else if (remoteBase === remoteHead || noCommitsBetween(repo, remoteBase, remoteHead)) {
    apiError = `No commits between ${base} and ${head}`;
  }
  if (apiError !== undefined) {
    throw new GhError(`pull request create failed: GraphQL: ${apiError} (createPullRequest)`);
  }
  const number = state.next_number;
  const now = ctx.now();
  const url = `https://github.com/${name.owner}/${name.name}/pull/${number}`;
  state.next_number = number + 1;
  state.pull_requests.push({
    number,
    title,
    body,
    head,
    base,
    draft,
    state: 'OPEN',
    created_at: now,
    updated_at: now,
    url,
    author: ctx.user(),
    ...(meta.labels.length > 0 ? { labels: meta.labels } : {}),
    ...(meta.assignees.length > 0 ? { assignees: meta.assignees } : {}),
  });
  store.changed();
  ctx.notes.pr = number;
  return { stdout: `${url}\n` };
}

/**
 * `--assignee` (`@me` replaced) and `--label`, checked as gh's `AddMetadataToIssueParams` does
 * before a dry run: assignees first, then labels. `given` is what the dry run prints.
 */
function metadata(ctx: Ctx, args: ParsedArgs, state: State) {
  const given = { assignees: replaceMe(ctx, list(args, 'assignee')), labels: list(args, 'label') };
  const assignees = resolveAssignees(ctx, given.assignees);
  if (assignees.unknown !== undefined) {
    throw new GhError(`could not assign user: '${assignees.unknown}' not found`);
  }
  const labels = resolveLabels(state, given.labels);
  if (labels.unknown !== undefined) {
    throw new GhError(`could not add label: '${labels.unknown}' not found`);
  }
  return { given, assignees: assignees.names, labels: labels.names };
}

/**
 * gh's `determineTrackingBranch`: the branch's configured upstream, then `<remote>/<branch>`
 * for each remote, whichever remote-tracking ref `git show-ref` finds at HEAD's commit. A
 * branch pushed under another name (`git push -u origin feature:other`) is followed to it.
 * Returns the head label (the branch name on the remote) and whether its remote is one gh
 * knows, or undefined when not pushed.
 */
function trackingBranch(
  repo: RepoContext,
  headBranch: string,
): { label: string; known: boolean } | undefined {
  const config = repo.config();
  const tracking: { remote: string; branch: string }[] = [];
  const remoteName = configValue(config, `branch.${headBranch}.remote`);
  const mergeRef = configValue(config, `branch.${headBranch}.merge`) ?? '';
  if (remoteName && !remoteName.includes(':') && !isFilesystemPath(remoteName)) {
    tracking.push({ remote: remoteName, branch: mergeRef.replace(/^refs\/heads\//, '') });
  }
  const remotes = repo.remotes();
  for (const r of remotes) tracking.push({ remote: r.name, branch: headBranch });
  const refName = (t: { remote: string; branch: string }): string =>
    `refs/remotes/${t.remote}/${t.branch}`;
  // git's own answer: show-ref stops at the first ref it cannot verify, as it does for gh.
  const out = repo.git(['show-ref', '--verify', '--', 'HEAD', ...tracking.map(refName)]);
  const refs = out.stdout
    .split('\n')
    .map((l) => l.split(' '))
    .filter((p) => p.length >= 2)
    .map(([hash, ...rest]) => ({ hash, name: rest.join(' ') }));
  const head = refs[0];
  for (const r of refs.slice(1)) {
    if (r.hash !== head?.hash) continue;
    const t = tracking.find((x) => refName(x) === r.name);
    if (!t) continue;
    const remote = remotes.find((x) => x.name === t.remote);
    // Pushed, but to a remote gh does not know: gh keeps the local branch name as the head.
    if (!remote) return { label: headBranch, known: false };
    const base = repo.baseRemote().repo;
    if (
      remote.repo.owner.toLowerCase() !== base.owner.toLowerCase() ||
      remote.repo.name.toLowerCase() !== base.name.toLowerCase()
    ) {
      throw new NotPlayedError(`"gh pr create" from a branch pushed to another repository`);
    }
    return { label: t.branch, known: true };
  }
  return undefined;
}

/** git/client.go `isFilesystemPath`. */
function isFilesystemPath(p: string): boolean {
  return p === '.' || p.startsWith('./') || p.startsWith('/');
}

function noCommitsBetween(repo: RepoContext, base: string, head: string): boolean {
  const r = repo.git(['rev-list', '--count', `${base}..${head}`]);
  // Objects missing here: the remote's word is all we have, and it said the tips differ.
  return r.status === 0 && r.stdout.trim() === '0';
}
