import { execa } from 'execa';

/**
 * Gives folders to `owner` (`uid:gid`) when evalrig runs as root, without
 * touching files shared with the cache: hardlinked ones (links > 1) stay
 * root's and read-only, so no run can alter another's or the cache. find runs
 * chown itself (-exec +): no shell, no xargs, two processes in all.
 *
 * @example
 * await handOverTrees([env.workTree, originRoot], '1000:1000');
 */
export async function handOverTrees(roots: readonly string[], owner: string): Promise<void> {
  if (process.getuid?.() !== 0) return;
  await execa('find', [
    ...roots,
    '(',
    '-type',
    'd',
    '-o',
    '-links',
    '1',
    ')',
    '-exec',
    'chown',
    '-h',
    owner,
    '{}',
    '+',
  ]);
}
