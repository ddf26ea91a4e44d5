import { mkdtempSync, chmodSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * One scratch folder per orchestrator, `<tmp>/evalrig-run-<pid>-XXXXXX`,
 * made the process's TMPDIR: every temporary folder evalrig (or git under it)
 * makes lands inside. When the orchestrator dies mid-measurement, its reaper
 * removes the whole folder; the next campaign also sweeps the folders of
 * pids that are gone (a reaper killed too).
 */
const PREFIX = 'evalrig-run-';

/** Whether a process of this pid exists (one of another user's counts). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Makes this process's scratch folder and points TMPDIR at it. Returns its path. */
export function useScratchFolder(): string {
  const parent = tmpdir();
  const dir = mkdtempSync(path.join(parent, `${PREFIX}${process.pid}-`));
  // Readable like the system's tmp: git run for the container's user reads evalrig's git home here.
  chmodSync(dir, 0o755);
  process.env.TMPDIR = dir;
  return dir;
}

/** Removes the scratch folders whose process is gone; returns how many. */
export function sweepStaleScratch(parent: string): number {
  let removed = 0;
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return 0;
  }
  for (const name of names) {
    const pid = Number(new RegExp(`^${PREFIX}(\\d+)-`, 'u').exec(name)?.[1]);
    if (!Number.isInteger(pid) || pid <= 0 || isProcessAlive(pid)) continue;
    try {
      rmSync(path.join(parent, name), { recursive: true, force: true });
      removed++;
    } catch {
      // Someone else's, or already gone: not ours to insist on.
    }
  }
  return removed;
}
