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

  let baseBranch = 'main';
  let date: string | undefined;
  if (spec.codebase) {
    const { resolved, cachePath } = spec.codebase;
    baseBranch = resolved.branch;
    await git(['clone', '-q', '--local', '--no-checkout', '--', cachePath, workTree], here);
    await git(['remote', 'remove', 'origin'], inWork);
    await git(['checkout', '-q', '-B', baseBranch, resolved.commit], inWork);
    await dropOtherBranches(workTree, baseBranch);
    // The baseline carries its parent's date: reproducible, and never older than its history.
    date = await git(['log', '-1', '--format=%ct +0000', resolved.commit], inWork);
  } else {
    await git(['init', '-q', '-b', baseBranch, workTree], here);
  }

  const placed = [
    ...(await placePaths(workTree, spec.overlay ?? [], 'overlay')),
    ...(await placePaths(workTree, spec.staged ?? [], 'staged path')),
  ];
  await git(['add', '-A'], inWork);
  const force = [...placed, ...forced.filter((path) => existsSync(join(workTree, path)))];
  if (force.length > 0) {
    await git(['add', '-f', '--pathspec-from-file=-', '--pathspec-file-nul'], {
      ...inWork,
      input: force.map((path) => `${path}\0`).join(''),
      env: { GIT_LITERAL_PATHSPECS: '1' },
    });
  }
  await git(['commit', '-q', '--allow-empty', '--no-verify', '-m', BASELINE_MESSAGE], {
    ...inWork,
    ...(date ? { date } : {}),
  });
  const baseline = await git(['rev-parse', 'HEAD'], inWork);
  await git(['update-ref', BASELINE_REF, baseline], inWork);

  await makeOrigin(spec, originPath, baseBranch);
  await git(['remote', 'add', 'origin', originPath], inWork);
  await git(['push', '-q', '-u', 'origin', baseBranch], inWork);
  let branch = baseBranch;
  if (spec.startBranch !== undefined && spec.startBranch !== baseBranch) {
    branch = spec.startBranch;
    await git(['checkout', '-q', '-b', branch], inWork);
    await git(['push', '-q', '-u', 'origin', branch], inWork);
  }
  if (spec.originUrl !== undefined)
    await git(['remote', 'set-url', 'origin', spec.originUrl], inWork);
  return { workTree, originPath, branch, baseBranch, baseline };
}

async function claimRoot(root: string): Promise<void> {
  if (existsSync(root) && (await readdir(root)).length > 0) {
    throw new EnvironmentError(`environment folder ${root} already exists and is not empty`);
  }
  await mkdir(root, { recursive: true });
}

async function dropOtherBranches(workTree: string, keep: string): Promise<void> {
  const branches = await git(['for-each-ref', '--format=%(refname:short)', 'refs/heads/'], {
    cwd: workTree,
  });
  const others = branches.split('\n').filter((branch) => branch && branch !== keep);
  if (others.length > 0) await git(['branch', '-q', '-D', ...others], { cwd: workTree });
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
