import {
  bool,
  noArguments,
  notPlayed,
  played,
  str,
  usageOf,
  type CommandSpec,
} from '../cli/args.js';
import { GhError } from '../errors.js';
import { configValue } from '../git/index.js';
import { branchOrFail, PR_COMMON_FLAGS, readBodyFile } from './common.js';
import type { Command } from './types.js';

const spec: CommandSpec = {
  name: 'pr create',
  flags: [
    played('draft', 'bool', 'd'),
    played('title', 'string', 't'),
    played('body', 'string', 'b'),
    played('body-file', 'string', 'F'),
    played('base', 'string', 'B'),
    played('head', 'string', 'H'),
    notPlayed('fill', 'bool', 'f'),
    notPlayed('fill-first', 'bool'),
    notPlayed('fill-verbose', 'bool'),
    notPlayed('web', 'bool', 'w'),
    notPlayed('editor', 'bool', 'e'),
    notPlayed('reviewer', 'string', 'r'),
    notPlayed('assignee', 'string', 'a'),
    notPlayed('label', 'string', 'l'),
    notPlayed('project', 'string', 'p'),
    notPlayed('milestone', 'string', 'm'),
    notPlayed('template', 'string', 'T'),
    notPlayed('no-maintainer-edit', 'bool'),
    notPlayed('dry-run', 'bool'),
    notPlayed('recover', 'string'),
    ...PR_COMMON_FLAGS,
  ],
};

/**
 * `gh pr create` (alias `new`): opens a pull request for the current branch (or `--head`)
 * into `--base`, the branch's `gh-merge-base`, or the remote's default branch. Prints the URL.
 */
export const prCreate: Command = {
  spec,
  run(ctx, args) {
    noArguments(spec, args);
    let body = str(args, 'body');
    const bodyFile = str(args, 'body-file');
    if (bodyFile !== undefined) body = readBodyFile(ctx, bodyFile);
    const title = str(args, 'title');
    if (title === undefined || body === undefined) {
      throw new GhError(
        'must provide `--title` and `--body` (or `--fill` or `fill-first` or `--fillverbose`) when not running interactively',
        1,
        usageOf(spec),
      );
    }
    ctx.notes.description = body;

    const repo = ctx.repo();
    const name = repo.repoName();
    const headFlag = str(args, 'head');
    const head = headFlag ?? branchOrFail(repo, 'could not determine the current branch: ');
    if (headFlag === undefined) {
      const status = repo.git(['status', '--porcelain']);
      const count = status.stdout.split('\n').filter((l) => l !== '').length;
      if (status.status === 0 && count > 0) {
        ctx.warnings.push(`Warning: ${count} uncommitted change${count === 1 ? '' : 's'}\n`);
      }
    }
    const base =
      str(args, 'base') ??
      configValue(repo.config(), `branch.${head}.gh-merge-base`) ??
      repo.defaultBranch();

    const remoteHead = repo.remoteBranchCommit(head);
    if (headFlag === undefined) {
      // Asked of the remote itself: a tracking ref can say "pushed" for a commit it lost.
      const local = repo.headCommit();
      if (remoteHead === undefined || remoteHead !== local) {
        throw new GhError(
          'aborted: you must first push the current branch to a remote, or use the --head flag',
        );
      }
    }
    const remoteBase = repo.remoteBranchCommit(base);
    let apiError: string | undefined;
    if (remoteHead === undefined) {
      apiError = `Head sha can't be blank, Base sha can't be blank, No commits between ${base} and ${head}, Head ref must be a branch`;
    } else if (remoteBase === undefined) {
      apiError = `Base ref must be a branch`;
    } else if (remoteBase === remoteHead || noCommitsBetween(ctx, remoteBase, remoteHead)) {
      apiError = `No commits between ${base} and ${head}`;
    }

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
      draft: bool(args, 'draft'),
      state: 'OPEN',
      created_at: now,
      updated_at: now,
      url,
      author: ctx.user(),
    });
    store.changed();
    ctx.notes.pr = number;
    return { stdout: `${url}\n` };
  },
};

function noCommitsBetween(
  ctx: { repo: () => { git: (a: string[]) => { status: number; stdout: string } } },
  base: string,
  head: string,
): boolean {
  const r = ctx.repo().git(['rev-list', '--count', `${base}..${head}`]);
  // Objects missing here: the remote's word is all we have, and it said the tips differ.
  return r.status === 0 && r.stdout.trim() === '0';
}
