import { existsSync } from 'node:fs';
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { git } from '../git/index.js';
import { removeRemote, setOriginAndUpstreams } from './config-file.js';
import { checkRelative, placePaths } from './place.js';
import {
  BASELINE_MESSAGE,
  BASELINE_REF,
  EnvironmentError,
  type Environment,
  type EnvironmentSpec,
} from './types.js';

const REMOTE_PART = /^(?!\.{1,2}$)[A-Za-z0-9_.-]+$/;

/**
 * Makes the task repository of one (eval, condition, run) under `spec.root`:
 *
 * - `work/`: `git clone --local` of the cached codebase (objects hardlinked),
 *   on the codebase's branch at the resolved commit, history intact, the
 *   source's remotes stripped; or, with no codebase, a fresh repository;
 * - the overlay, then the staged paths, copied on top;
 * - one commit "evalrig task baseline" made with a `git add` that respects the
 *   codebase's .gitignore, with every runner-placed path (overlay, staged,
 *   `forcedPaths`) forced in; `refs/evalrig/baseline` marks it; the tree is clean;
 * - `remote/<owner>/<name>.git`: a bare repository of its own (objects
 *   hardlinked too) added as `origin`, holding the branch (and the start
 *   branch) at the baseline, which the work tree's branches track, as if
 *   they had been pushed with `git push -u`.
 *
 * @example
 * const cachePath = await materializeCodebase(resolved);
 * const env = await prepareEnvironment({
 *   root: '/out/runs/e1-with_skill-1',
 *   codebase: { resolved, cachePath },
 *   overlay: [{ from: '/evals/files/TASK.md', to: 'docs/TASK.md' }],
 *   staged: [{ from: '/skills/tdd', to: '.claude/skills/tdd' }],
 *   forcedPaths: ['.claude'],
 *   remote: { owner: 'acme', name: 'toy' },
 *   originUrl: '/remote/acme/toy.git',
 * });
 */
export async function prepareEnvironment(spec: EnvironmentSpec): Promise<Environment> {
  const { owner, name } = spec.remote;
  if (!REMOTE_PART.test(owner) || !REMOTE_PART.test(name)) {
    throw new EnvironmentError(
      `remote "${owner}/${name}" must be two names of letters, digits, '.', '_' or '-'`,
    );
  }
  const forced = (spec.forcedPaths ?? []).map((path) => checkRelative(path, 'forced path'));
  await claimRoot(spec.root);
  const workTree = join(spec.root, 'work');
  const originPath = join(spec.root, 'remote', owner, `${name}.git`);
  const here = { cwd: spec.root };
  const inWork = { cwd: workTree };

  const baseBranch = spec.codebase?.resolved.branch ?? 'main';
  // The prepared start branch is checked out from the first: it and the base
  // branch end at the same baseline, so no second checkout is needed.
  const branch = spec.startBranch ?? baseBranch;
  const branches = branch === baseBranch ? [baseBranch] : [baseBranch, branch];
  let parent: string | undefined;
  let date: string | undefined;
  // One ref transaction makes every ref change: ref -> its command.
  const refUpdates = new Map<string, string>();
  if (spec.codebase) {
    const { resolved, cachePath } = spec.codebase;
    parent = resolved.commit;
    await git(['clone', '-q', '--local', '--no-checkout', '--', cachePath, workTree], {
      ...here,
      transport: 'any',
    });
    await git(['checkout', '-q', '-B', branch, resolved.commit], inWork);
    // Strip the source: every remote-tracking ref and every other branch goes
    // (origin is re-pointed below). The checked-out branch gives the date.
    const refs = await git(
      ['for-each-ref', '--format=%(refname) %(committerdate:raw)', 'refs/heads/', 'refs/remotes/'],
      inWork,
    );
    for (const line of refs.split('\n').filter(Boolean)) {
      const [ref = '', ...when] = line.split(' ');
      if (ref === `refs/heads/${branch}`) date = when.join(' ');
      else refUpdates.set(ref, `delete ${ref}\n`);
    }
  } else {
    await git(['init', '-q', '-b', branch, workTree], here);
  }

  const placed = [
    ...(await placePaths(workTree, spec.overlay ?? [], 'overlay')),
    ...(await placePaths(workTree, spec.staged ?? [], 'staged path')),
  ];
  // Only runner-placed paths can differ from the checkout, so only they are
  // added (forced: a codebase that ignores .claude/ cannot hide a staged
  // skill); nothing the codebase ignores is swept in.
  const force = [...placed, ...forced.filter((path) => existsSync(join(workTree, path)))];
  if (force.length > 0) {
    await git(['add', '-f', '--pathspec-from-file=-', '--pathspec-file-nul'], {
      ...inWork,
      input: force.map((path) => `${path}\0`).join(''),
      env: { GIT_LITERAL_PATHSPECS: '1' },
    });
  }
  const tree =
    force.length > 0 || parent === undefined
      ? await git(['write-tree'], inWork)
      : `${parent}^{tree}`;
  const baseline = await git(
    ['commit-tree', ...(parent ? ['-p', parent] : []), '-m', BASELINE_MESSAGE, tree],
    { ...inWork, ...(date ? { date } : {}) },
  );
  // The branches, the baseline mark, and the remote-tracking refs a push of
  // the branches to origin would leave.
  for (const each of branches) {
    for (const ref of [`refs/heads/${each}`, `refs/remotes/origin/${each}`]) {
      refUpdates.set(ref, `update ${ref} ${baseline}\n`);
    }
  }
  refUpdates.set(BASELINE_REF, `update ${BASELINE_REF} ${baseline}\n`);
  await git(['update-ref', '--no-deref', '--stdin'], {
    ...inWork,
    input: [...refUpdates.values()].join(''),
  });
  await setOriginAndUpstreams(
    join(workTree, '.git', 'config'),
    spec.originUrl ?? originPath,
    branches,
  );
  await makeOrigin(spec.root, workTree, originPath, baseBranch);
  return { workTree, originPath, branch, baseBranch, baseline };
}

async function claimRoot(root: string): Promise<void> {
  if (existsSync(root) && (await readdir(root)).length > 0) {
    throw new EnvironmentError(`environment folder ${root} already exists and is not empty`);
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
