import { existsSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { git } from '../git/index.js';
import {
  defaultSharing,
  placeCodebaseObjects,
  readCacheEntry,
  type ObjectSharing,
} from '../source/index.js';
import { removeRemote, setOriginAndUpstreams } from './config-file.js';
import { checkRelative, placePaths, presentInTree } from './place.js';
import {
  BASELINE_COMMIT,
  BASELINE_REF,
  WorkspaceError,
  type Workspace,
  type WorkspaceSpec,
} from './types.js';

const REMOTE_PART = /^(?!\.{1,2}$)[A-Za-z0-9_.-]+$/;

/**
 * Makes the task repository of one (eval, condition, run) under `spec.root`:
 *
 * - `work/`: a new repository given the cache entry's pack (hardlinked when
 *   evalrig is root, else copied: see `defaultSharing`; copied too across
 *   filesystems), so it holds the resolved commit with its history and
 *   nothing else (no later commit, no other branch or tag, no remote), on
 *   the codebase's branch; or, with no codebase, a fresh repository;
 * - the overlay, then the staged paths, copied on top; a placed path never
 *   goes through a symbolic link the codebase tracks (see `placePaths`);
 * - one commit (message and identity `spec.baselineCommit`, else
 *   {@link BASELINE_COMMIT}: nothing an ordinary project would not write) made
 *   with a `git add` that respects the codebase's .gitignore, with every
 *   runner-placed path (overlay, staged, `forcedPaths`) forced in, and the
 *   files a fresh checkout shows as changed (line endings under a `text`
 *   attribute, filters) re-added, so an agent that does nothing has an empty
 *   diff; none when that leaves the codebase's tree as it was (the codebase's
 *   commit is then the baseline); `refs/evalrig/baseline` marks it; the tree
 *   is clean;
 * - `remote/<owner>/<name>.git`: a bare repository of its own (objects
 *   hardlinked too) added as `origin`, holding the branch (and the start
 *   branch) at the baseline, which the work tree's branches track, as if
 *   they had been pushed with `git push -u`; `origin/HEAD` names the base
 *   branch, as a clone leaves it (tools that ask git for the default branch
 *   find the codebase's, not a made-up "main").
 *
 * @example
 * const cachePath = await materializeCodebase(resolved);
 * const env = await prepareWorkspace({
 *   root: '/out/runs/e1-with_skill-1',
 *   codebase: { resolved, cachePath },
 *   overlay: [{ from: '/evals/files/TASK.md', to: 'docs/TASK.md' }],
 *   staged: [{ from: '/skills/tdd', to: '.claude/skills/tdd' }],
 *   forcedPaths: ['.claude'],
 *   remote: { owner: 'acme', name: 'toy' },
 *   originUrl: '/remote/acme/toy.git',
 * });
 */
export async function prepareWorkspace(spec: WorkspaceSpec): Promise<Workspace> {
  const { owner, name } = spec.remote;
  if (!REMOTE_PART.test(owner) || !REMOTE_PART.test(name)) {
    throw new WorkspaceError(
      `remote "${owner}/${name}" must be two names of letters, digits, '.', '_' or '-'`,
    );
  }
  const forced = (spec.forcedPaths ?? []).map((path) => checkRelative(path, 'forced path'));
  await claimRoot(spec.root);
  const workTree = join(spec.root, 'work');
  const originPath = join(spec.root, 'remote', owner, `${name}.git`);

  const baseBranch = spec.codebase?.resolved.branch ?? 'main';
  // The prepared start branch is checked out from the first: it and the base
  // branch end at the same baseline, so no second checkout is needed.
  const branch = spec.startBranch ?? baseBranch;
  const branches = branch === baseBranch ? [baseBranch] : [baseBranch, branch];
  await git(['init', '-q', '-b', branch, workTree], { cwd: spec.root });
  const checkedOut = await checkoutCodebase(spec, workTree, branch);
  const baseline = await commitBaseline(spec, workTree, forced, checkedOut);
  await writeBranchRefs(workTree, branches, baseline);
  await writeOriginHead(workTree, baseBranch);
  await setOriginAndUpstreams(
    join(workTree, '.git', 'config'),
    spec.originUrl ?? originPath,
    branches,
  );
  await makeOrigin(spec.root, workTree, originPath, baseBranch);
  const { objects } = checkedOut;
  return {
    workTree,
    originPath,
    branch,
    baseBranch,
    baseline,
    ...(objects === undefined ? {} : { objects }),
  };
}

/** What the codebase's checkout left for the baseline (nothing without a codebase). */
interface CheckedOut {
  readonly parent?: string;
  readonly date?: string;
  readonly renormalize: readonly string[];
  readonly objects?: ObjectSharing;
}

/** The codebase's commit checked out on `branch` from its cache entry's objects. */
async function checkoutCodebase(
  spec: WorkspaceSpec,
  workTree: string,
  branch: string,
): Promise<CheckedOut> {
  if (!spec.codebase) return { renormalize: [] };
  const { resolved, cachePath } = spec.codebase;
  const entry = await readCacheEntry(cachePath);
  if (entry.commit !== resolved.commit) {
    throw new WorkspaceError(
      `cache entry ${cachePath} holds commit ${entry.commit}, not ${resolved.commit}`,
    );
  }
  const objects = await placeCodebaseObjects(
    entry,
    join(workTree, '.git'),
    spec.codebase.sharing ?? defaultSharing(),
  );
  // HEAD detached at the commit first, as a clone of the entry leaves it:
  // checkout then switches from the commit to itself, with nothing to compare.
  await writeFile(join(workTree, '.git', 'HEAD'), `${resolved.commit}\n`);
  await git(['checkout', '-q', '-B', branch, resolved.commit], { cwd: workTree });
  return {
    parent: resolved.commit,
    date: entry.committerDate,
    renormalize: entry.renormalize,
    objects,
  };
}

/** The baseline commit: the checkout plus what the runner placed (overlay, staged, forced). */
async function commitBaseline(
  spec: WorkspaceSpec,
  workTree: string,
  forced: readonly string[],
  { parent, date, renormalize }: CheckedOut,
): Promise<string> {
  const inWork = { cwd: workTree };
  if (renormalize.length > 0) {
    // Stat-clean files are not re-read by a plain add: --renormalize re-adds them.
    await git(['add', '--renormalize', '--pathspec-from-file=-', '--pathspec-file-nul'], {
      ...inWork,
      input: renormalize.map((path) => `${path}\0`).join(''),
      env: { GIT_LITERAL_PATHSPECS: '1' },
    });
  }
  const placed = [
    ...(await placePaths(workTree, spec.overlay ?? [], 'overlay')),
    ...(await placePaths(workTree, spec.staged ?? [], 'staged path')),
  ];
  // Only runner-placed paths can differ from the checkout, so only they are
  // added (forced: a codebase that ignores .claude/ cannot hide a staged
  // skill); nothing the codebase ignores is swept in.
  const present = await Promise.all(forced.map((path) => presentInTree(workTree, path)));
  const force = [...placed, ...forced.filter((_, i) => present[i])];
  if (force.length > 0) {
    await git(['add', '-f', '--pathspec-from-file=-', '--pathspec-file-nul'], {
      ...inWork,
      input: force.map((path) => `${path}\0`).join(''),
      env: { GIT_LITERAL_PATHSPECS: '1' },
    });
  }
  if (parent !== undefined && force.length === 0 && renormalize.length === 0) return parent;
  const tree = await git(['write-tree'], inWork);
  // Nothing placed changed the codebase's tree: a commit would only add a mark.
  if (parent !== undefined && tree === (await git(['rev-parse', `${parent}^{tree}`], inWork)))
    return parent;
  const message = spec.baselineCommit?.message ?? BASELINE_COMMIT.message;
  const { name, email } = spec.baselineCommit?.author ?? BASELINE_COMMIT.author;
  const identity = {
    GIT_AUTHOR_NAME: name,
    GIT_AUTHOR_EMAIL: email,
    GIT_COMMITTER_NAME: name,
    GIT_COMMITTER_EMAIL: email,
  };
  return git(['commit-tree', ...(parent ? ['-p', parent] : []), '-m', message, tree], {
    ...inWork,
    env: identity,
    ...(date ? { date } : {}),
  });
}

/** `origin/HEAD` on the base branch, as `git clone` leaves it (a symbolic ref, written as git does). */
async function writeOriginHead(workTree: string, baseBranch: string): Promise<void> {
  const dir = join(workTree, '.git', 'refs', 'remotes', 'origin');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'HEAD'), `ref: refs/remotes/origin/${baseBranch}\n`);
}

/**
 * The branches, the baseline mark, and the remote-tracking refs a push of the branches to
 * origin would leave, in one ref transaction.
 */
async function writeBranchRefs(
  workTree: string,
  branches: readonly string[],
  baseline: string,
): Promise<void> {
  const refUpdates = new Map<string, string>();
  for (const each of branches) {
    for (const ref of [`refs/heads/${each}`, `refs/remotes/origin/${each}`]) {
      refUpdates.set(ref, `update ${ref} ${baseline}\n`);
    }
  }
  refUpdates.set(BASELINE_REF, `update ${BASELINE_REF} ${baseline}\n`);
  await git(['update-ref', '--no-deref', '--stdin'], {
    cwd: workTree,
    input: [...refUpdates.values()].join(''),
  });
}

async function claimRoot(root: string): Promise<void> {
  if (existsSync(root) && (await readdir(root)).length > 0) {
    throw new WorkspaceError(`workspace folder ${root} already exists and is not empty`);
  }
  await mkdir(root, { recursive: true });
}

/**
 * The bare origin, made once the work tree holds the baseline: a `--local`
 * clone of it (objects hardlinked, so the cache's packs are shared too)
 * holding its branches (the base branch and the start branch, both at the
 * baseline) and no tags, HEAD on the base branch, and no remote of its own.
 * It is what pushing the branches to an empty origin would leave, without
 * the push's half a dozen processes.
 */
async function makeOrigin(
  root: string,
  workTree: string,
  originPath: string,
  baseBranch: string,
): Promise<void> {
  await git(
    [
      'clone',
      '-q',
      '--bare',
      '--local',
      '--no-tags',
      '--branch',
      baseBranch,
      '--',
      workTree,
      originPath,
    ],
    // Still the host's own repository: the container has not started yet.
    { cwd: root, transport: 'any' },
  );
  await removeRemote(join(originPath, 'config'), 'origin');
}
