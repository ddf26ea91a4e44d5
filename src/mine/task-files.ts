/**
 * What a mined task keeps host-side, in the eval set's folder, read from the codebase's cache
 * (a bare repository): the commit's test files as they are at the commit (its check files: the
 * future, copied in only after the agent's last turn) and the reference diff (every change of
 * the commit but its tests). Neither is ever staged.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runGit } from '../git/index.js';
import type { Candidate } from './candidates.js';
import type { FileRoles } from './conventions.js';

/** A task's folder, under `tasks/` of the eval set's folder. */
export interface TaskFiles {
  /** The eval's id: `c-` and the commit's first 10 hex digits. */
  readonly id: string;
  /** `tasks/<id>`, relative to the eval set's folder. */
  readonly dir: string;
  /** `tasks/<id>/tests`: the commit's test files at their work-tree paths. */
  readonly tests: string;
  /** `tasks/<id>/reference.patch`. */
  readonly patch: string;
  /** The tests the commit added or changed (fail-to-pass), work-tree paths. */
  readonly failToPass: readonly string[];
  /** The parent's other test files (pass-to-pass), work-tree paths. */
  readonly passToPass: readonly string[];
  /** Bytes of the reference diff. */
  readonly patchBytes: number;
}

export const taskId = (commit: string): string => `c-${commit.slice(0, 10)}`;

/** Writes the task's files under `setDir` and says what they are. */
export async function writeTaskFiles(
  gitDir: string,
  setDir: string,
  c: Candidate,
  roles: FileRoles,
): Promise<TaskFiles> {
  const id = taskId(c.commit);
  const dir = path.posix.join('tasks', id);
  const tests = path.posix.join(dir, 'tests');
  const testsDir = path.join(setDir, tests);
  await mkdir(testsDir, { recursive: true });
  // Byte for byte (a fixture may be binary), through a scratch index: the cache's stays unread.
  const scratch = await mkdtemp(path.join(tmpdir(), 'evalrig-mine-'));
  try {
    await runGit(
      [`--git-dir=${gitDir}`, `--work-tree=${testsDir}`, 'checkout', c.commit, '--', ...c.tests],
      { cwd: testsDir, reject: true, env: { GIT_INDEX_FILE: path.join(scratch, 'index') } },
    );
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  const changed = (
    await runGit(['diff', '--name-only', '-z', '--no-renames', c.parent, c.commit], {
      cwd: gitDir,
      reject: true,
    })
  ).stdout
    .split('\0')
    .filter((f) => f !== '' && roles.roleOf(f) !== 'test');
  const { stdout: patch } = await runGit(
    ['diff', '--binary', '--no-renames', c.parent, c.commit, '--', ...changed],
    { cwd: gitDir, reject: true },
  );
  const patchFile = path.posix.join(dir, 'reference.patch');
  await writeFile(path.join(setDir, patchFile), patch.endsWith('\n') ? patch : `${patch}\n`);
  const atParent = (
    await runGit(['ls-tree', '-r', '-z', '--name-only', c.parent], { cwd: gitDir, reject: true })
  ).stdout
    .split('\0')
    .filter((f) => f !== '' && roles.roleOf(f) === 'test');
  const touched = new Set(c.tests);
  return {
    id,
    dir,
    tests,
    patch: patchFile,
    failToPass: c.tests,
    passToPass: atParent.filter((f) => !touched.has(f)),
    patchBytes: Buffer.byteLength(patch),
  };
}
