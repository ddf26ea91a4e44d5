/**
 * An eval's check files: copied in by the host after the agent's last turn, before the checks
 * (a mined task's tests: the future, which the agent must never see). Each replaces whatever
 * the agent left at its path, never merged; the paths the agent had changed are recorded. The
 * agent's work is measured before they land: they are the host's, not the agent's.
 */
import { lstat, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { StagedPath } from '../../config/index.js';
import type { SandboxFile } from '../../sandbox/index.js';
import type { ReadyRun, RunState } from './context.js';

/** A file is the host's to copy: no link is followed out of the eval set's folder. */
async function filesUnder(from: string, to: string): Promise<Array<{ host: string; rel: string }>> {
  const info = await lstat(from);
  if (info.isFile()) return [{ host: from, rel: to }];
  if (!info.isDirectory()) return [];
  const out: Array<{ host: string; rel: string }> = [];
  for (const name of (await readdir(from)).sort()) {
    out.push(...(await filesUnder(path.join(from, name), path.posix.join(to, name))));
  }
  return out;
}

/** The work-tree paths the agent's final patch touched (`diff --git a/X b/Y`: both sides). */
export function pathsInPatch(patch: string): Set<string> {
  const found = new Set<string>();
  for (const m of patch.matchAll(/^diff --git a\/(.+?) b\/(.+)$/gmu)) {
    found.add(m[1]!);
    found.add(m[2]!);
  }
  return found;
}

/**
 * Copies the eval's check files into the work tree as the agent's user, and notes in `state`
 * which it placed and which of their paths the agent had changed (its last stop's patch).
 */
export async function placeCheckFiles(
  run: ReadyRun,
  state: RunState,
  checkFiles: readonly StagedPath[],
): Promise<void> {
  const [uid, gid] = run.agentUser.split(':').map(Number) as [number, number];
  const touched = pathsInPatch(state.lastDiff?.patch ?? '');
  const files: SandboxFile[] = [];
  const placed: string[] = [];
  for (const entry of checkFiles) {
    for (const f of await filesUnder(entry.from, entry.to)) {
      placed.push(f.rel);
      files.push({
        path: path.posix.join(run.containerWorkTree, f.rel),
        content: await readFile(f.host),
        mode: ((await lstat(f.host)).mode & 0o111) !== 0 ? 0o755 : 0o644,
        owner: { uid, gid },
      });
    }
  }
  await run.sandbox.writeFiles(files);
  state.checkFiles = { placed, replaced: placed.filter((p) => touched.has(p)) };
}
