import { existsSync } from 'node:fs';
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { git } from '../git/index.js';
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
 *   hardlinked too) added as `origin`, the baseline pushed to it.
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
  // The origin needs only the cache: it is made while the work tree is checked out.
  const origin = makeOrigin(spec, originPath, baseBranch);
  origin.catch(() => undefined); // awaited below
  let parent: string | undefined;
  let date: string | undefined;
  const refUpdates: string[] = [];
  if (spec.codebase) {
    const { resolved, cachePath } = spec.codebase;
    parent = resolved.commit;
    await git(['clone', '-q', '--local', '--no-checkout', '--', cachePath, workTree], here);
    await git(['checkout', '-q', '-B', baseBranch, resolved.commit], inWork);
    // Strip the source: every remote-tracking ref and every other branch goes
    // (origin's URL is replaced below). The tip of the branch gives the date.
    const refs = await git(
      ['for-each-ref', '--format=%(refname) %(committerdate:raw)', 'refs/heads/', 'refs/remotes/'],
      inWork,
    );
    for (const line of refs.split('\n').filter(Boolean)) {
      const [ref = '', ...when] = line.split(' ');
      if (ref === `refs/heads/${baseBranch}`) date = when.join(' ');
      else refUpdates.push(`delete ${ref}\n`);
    }
  } else {
    await git(['init', '-q', '-b', baseBranch, workTree], here);
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
  refUpdates.push(
    `update refs/heads/${baseBranch} ${baseline}\n`,
    `update ${BASELINE_REF} ${baseline}\n`,
  );
  await git(['update-ref', '--no-deref', '--stdin'], { ...inWork, input: refUpdates.join('') });

  await git(
    ['remote', spec.codebase ? 'set-url' : 'add', 'origin', spec.originUrl ?? originPath],
    inWork,
  );
  await origin;
  // Pushes go to the host path even when origin's URL is where a container sees it.
  const push = ['-c', `remote.origin.pushurl=${originPath}`, 'push', '-q', '-u', 'origin'];
  let branch = baseBranch;
  if (spec.startBranch !== undefined && spec.startBranch !== baseBranch) {
    branch = spec.startBranch;
    await git(['checkout', '-q', '-b', branch], inWork);
    await git([...push, baseBranch, branch], inWork);
  } else {
    await git([...push, baseBranch], inWork);
  }
  return { workTree, originPath, branch, baseBranch, baseline };
}

async function claimRoot(root: string): Promise<void> {
  if (existsSync(root) && (await readdir(root)).length > 0) {
    throw new EnvironmentError(`environment folder ${root} already exists and is not empty`);
  }
  await mkdir(root, { recursive: true });
}

/**
 * The bare origin. With a codebase it is a `--local` clone of the cache
 * (objects hardlinked) holding only the codebase branch at the resolved
 * commit, so pushing the baseline sends one commit, not the history.
 */
async function makeOrigin(
  spec: EnvironmentSpec,
  originPath: string,
  branch: string,
): Promise<void> {
  const here = { cwd: spec.root };
  if (!spec.codebase) {
    await git(['init', '-q', '--bare', '-b', branch, originPath], here);
    return;
  }
  const { cachePath, resolved } = spec.codebase;
  await git(
    [
      'clone',
      '-q',
      '--bare',
      '--local',
      '--no-tags',
      '--single-branch',
      '--',
      cachePath,
      originPath,
    ],
    here,
  );
  const inOrigin = { cwd: originPath };
  await git(['remote', 'remove', 'origin'], inOrigin);
  const refs = await git(['for-each-ref', '--format=%(refname)'], inOrigin);
  const commands = refs
    .split('\n')
    .filter((ref) => ref && ref !== `refs/heads/${branch}`)
    .map((ref) => `delete ${ref}\n`);
  commands.push(`update refs/heads/${branch} ${resolved.commit}\n`);
  await git(['update-ref', '--stdin'], { ...inOrigin, input: commands.join('') });
  await git(['symbolic-ref', 'HEAD', `refs/heads/${branch}`], inOrigin);
}
