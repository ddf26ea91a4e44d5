/**
 * A run's release: its recorder and gateway closed, its quota unmounted, its
 * workspace removed or kept.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import type { CampaignContext, PreparedRun } from './context.js';

/** Releases what a prepared run holds when it will not be played (an interrupted campaign). */
export async function discardPreparedRun(
  ctx: CampaignContext,
  prepared: PreparedRun,
): Promise<void> {
  if (prepared.sandbox) {
    ctx.live.delete(prepared.sandbox);
    await prepared.sandbox.remove().catch(() => undefined);
  }
  await releaseWorkspace(prepared, false);
}

/**
 * Unmounts a run's quota and removes its workspace, or keeps it (what the
 * run left, copied out of the quota's memory first) for a person to look at.
 */
export async function releaseWorkspace(prepared: PreparedRun, keep: boolean): Promise<void> {
  const { quota, layout } = prepared;
  await prepared.recorder?.close();
  await prepared.gateway?.close();
  if (keep) {
    if (quota) {
      await execa('cp', ['-a', quota.view, path.join(layout.envRoot, 'kept')], { reject: false });
      await quota.unmount();
    }
    return;
  }
  await quota?.unmount();
  await rm(layout.envRoot, { recursive: true, force: true });
}
