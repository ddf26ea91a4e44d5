import { copyFile, mkdir, readdir, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runGit } from '../git/index.js';
import { checkObjectFolder } from '../untrusted/index.js';
import type { Workspace } from './types.js';

/**
 * The host's own record of a workspace, taken at preparation before the
 * agent can touch anything, and kept where the container cannot reach: a git
 * dir of evalrig's (its config only) holding the baseline's new objects and
 * the index of the prepared tree, borrowing the rest from trusted object
 * folders (the codebase cache). Every later measure of the workspace runs
 * git here, never in the agent's repository; the baseline is the commit the
 * host recorded, never the agent's ref.
 */
export interface Seal {
  /** The workspace's work tree (host path; what is measured). */
  readonly workTree: string;
  /** evalrig's git dir for this workspace. */
  readonly gitDir: string;
  /** The baseline commit, as recorded at preparation. */
  readonly baseline: string;
}

/**
 * Config of a seal's git dir: commit-graph and multi-pack-index files are not
 * read, so object folders borrowed from the agent (for an ancestry check)
 * cannot answer with forged ones.
 */
const SEAL_CONFIG =
  '[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tcommitGraph = false\n\tmultiPackIndex = false\n';

/**
 * Seals a freshly prepared workspace into `hostDir` (a folder only the
 * orchestrator's user can enter). `trustedObjects` are object folders the
 * host owns (the codebase cache's) that the workspace's objects came from.
 *
 * @example
 * const env = await prepareWorkspace(spec);
 * const seal = await sealWorkspace(env, join(root, 'host'), [join(cachePath, 'objects')]);
 * const diff = await measureDiff(seal);
 */
export async function sealWorkspace(
  env: Workspace,
  hostDir: string,
  trustedObjects: readonly string[],
): Promise<Seal> {
  const gitDir = join(hostDir, 'git');
  const objects = join(gitDir, 'objects');
  await mkdir(join(objects, 'info'), { recursive: true, mode: 0o700 });
  await mkdir(join(gitDir, 'refs'), { recursive: true });
  await mkdir(join(gitDir, 'info'), { recursive: true });
  await writeFile(join(gitDir, 'HEAD'), `${env.baseline}\n`);
  await writeFile(join(gitDir, 'config'), SEAL_CONFIG);
  if (trustedObjects.length > 0) {
    await writeFile(join(objects, 'info', 'alternates'), `${trustedObjects.join('\n')}\n`);
  }
  // Preparation's own objects (the baseline commit and tree, placed files)
  // are loose in the work tree's repository: copied while still the host's.
  const source = join(env.workTree, '.git');
  await copyLooseObjects(join(source, 'objects'), objects);
  if (existsSync(join(source, 'index')))
    await copyFile(join(source, 'index'), join(gitDir, 'index'));
  if (existsSync(join(source, 'info', 'exclude'))) {
    await copyFile(join(source, 'info', 'exclude'), join(gitDir, 'info', 'exclude'));
  }
  return { workTree: env.workTree, gitDir, baseline: env.baseline };
}

async function copyLooseObjects(from: string, to: string): Promise<void> {
  for (const fan of await readdir(from)) {
    if (!/^[0-9a-f]{2}$/u.test(fan)) continue;
    await mkdir(join(to, fan), { recursive: true });
    for (const name of await readdir(join(from, fan))) {
      await copyFile(join(from, fan, name), join(to, fan, name));
    }
  }
}

/**
 * Whether `ancestor` is `descendant` or one of its ancestors, answered in the
 * seal's git dir with the agent's object folders borrowed as data: each is
 * checked first (real files and folders only, no alternates of its own), and
 * the seal's config reads no commit-graph, no replace refs and no transport.
 * False when git cannot tell (an object is missing or broken).
 */
export async function isAncestorIn(
  seal: Seal,
  borrowedObjects: readonly string[],
  ancestor: string,
  descendant: string,
): Promise<boolean> {
  if (ancestor === descendant) return true;
  for (const dir of borrowedObjects) await checkObjectFolder(dir);
  const r = await runGit(
    [`--git-dir=${seal.gitDir}`, 'merge-base', '--is-ancestor', ancestor, descendant],
    {
      cwd: seal.gitDir,
      reject: false,
      env: {
        GIT_ALTERNATE_OBJECT_DIRECTORIES: borrowedObjects.join(':'),
        GIT_NO_REPLACE_OBJECTS: '1',
      },
    },
  );
  return r.exitCode === 0;
}

/**
 * Brings the seal's index up to date with the work tree's stat data (after the
 * files were handed to the container's user, which changes their ctime), so
 * the first measure re-reads only what the agent changed.
 */
export async function refreshSeal(seal: Seal): Promise<void> {
  await runGit(
    [`--git-dir=${seal.gitDir}`, `--work-tree=${seal.workTree}`, 'update-index', '-q', '--refresh'],
    { cwd: seal.gitDir, reject: false },
  );
}
