/**
 * What stands guard over a campaign while it lives: its reapers (started
 * before the first container, whatever ends this process, they go), the
 * engine's watch, and the signal's clean-up; then the campaign's own
 * clean-up when it ends.
 */
import { campaignFiles } from '../../campaign-folder/index.js';
import { closeQuotas, newQuotaOwner } from '../../workspace/index.js';
import { onInterrupt } from '../../runtime/index.js';
import { LABELS, type Sandbox } from '../../sandbox/index.js';
import type { CampaignOptions } from '../options.js';
import type { OpenedEngines } from './engines.js';

/** A campaign's guard: the sandboxes in flight, whether a signal cut it, and its clean-up. */
export interface CampaignGuard {
  readonly live: Set<Sandbox>;
  /** True once a signal cut the campaign. */
  interrupted: boolean;
  /** The campaign id its containers are labelled with (the signal removes by it). */
  campaign: string;
  /** The mark on this invocation's disk quotas (its reaper unmounts only those). */
  readonly quotaOwner: string;
  /** Ends the guard: nothing returns from it when a signal owns the exit. */
  readonly close: () => Promise<void>;
}

/** Waits for `work` until `deadline` (epoch ms): true when it succeeded in time. */
async function until(work: Promise<unknown>, deadline: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), Math.max(0, deadline - Date.now()));
  });
  const done = work.then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([done, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Opens the campaign's provider (its reapers stand before the first container:
 * whatever ends this process, they go; its engines are watched) and stands
 * guard until {@link CampaignGuard.close}, which closes the provider.
 */
export async function guardCampaign(
  outDir: string,
  options: CampaignOptions,
  opened: OpenedEngines,
  campaignId: string,
  release: () => Promise<void>,
  log: NodeJS.WritableStream,
): Promise<CampaignGuard> {
  const { client, sandboxes } = opened;
  const live = new Set<Sandbox>();
  const quotaOwner = newQuotaOwner();
  const guard: CampaignGuard = {
    live,
    interrupted: false,
    campaign: campaignId,
    quotaOwner,
    close,
  };
  const work = campaignFiles(outDir).work;
  await sandboxes.open({
    scratch: options.scratch,
    mounts: work,
    mountsOwner: quotaOwner,
    watch: options.engineWatch,
  });

  const unregister = onInterrupt(async (signal, deadline) => {
    guard.interrupted = true;
    log.write(`\nevalrig: ${signal}: removing this campaign's containers\n`);
    // The provider's close: creations stopped (those in flight land first), then what it started removed.
    const removed = await until(sandboxes.close(), deadline - 300);
    if (!removed) {
      log.write(
        `evalrig: the engine at ${client?.where ?? sandboxes.name} did not answer: containers labelled ${LABELS.campaign}=${guard.campaign} may remain; evalrig's reaper keeps removing them for a minute, else: docker rm -f $(docker ps -aq --filter label=${LABELS.campaign}=${guard.campaign})\n`,
      );
    }
    // Quotas of the runs in flight: none mounted from now on, those under way
    // land, then all are unmounted before exit (a killed orchestrator's: by its reaper).
    await until(closeQuotas(work), deadline - 200);
    await until(release(), deadline);
  });

  async function close(): Promise<void> {
    if (guard.interrupted) {
      // The signal's clean-up owns the exit; nothing more happens here.
      await new Promise<never>(() => {});
    }
    unregister();
    await Promise.all([...live].map((c) => c.remove().catch(() => undefined)));
    await release();
    await sandboxes.close();
  }
  return guard;
}
