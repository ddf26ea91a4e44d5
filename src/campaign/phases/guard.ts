/**
 * What stands guard over a campaign while it lives: its reapers (started
 * before the first container, whatever ends this process, they go), the
 * engine's watch, and the signal's clean-up; then the campaign's own
 * clean-up when it ends.
 */
import path from 'node:path';
import { campaignFiles } from '../../campaign-folder/index.js';
import { sweepQuotas } from '../../environment/index.js';
import {
  LABELS,
  onInterrupt,
  startReaper,
  sweepStaleScratch,
  watchEngine,
} from '../../runtime/index.js';
import { EnginePool, type Sandbox, type SandboxProvider } from '../../sandbox/index.js';
import type { CampaignOptions } from '../options.js';
import type { OpenedEngines } from './engines.js';

/** A campaign's guard: the sandboxes in flight, whether a signal cut it, and its clean-up. */
export interface CampaignGuard {
  readonly live: Set<Sandbox>;
  /** True once a signal cut the campaign. */
  interrupted: boolean;
  /** The campaign id its containers are labelled with (the signal removes by it). */
  campaign: string;
  /** Ends the guard: nothing returns from it when a signal owns the exit. */
  readonly close: () => Promise<void>;
}

/**
 * Removes the campaign's sandboxes until a listing finds none: a container
 * whose removal another call already started (409) is still listed until
 * that removal ends, and must not be counted gone before.
 */
async function removeAll(sandboxes: SandboxProvider, campaign: string): Promise<void> {
  while ((await sandboxes.reap({ [LABELS.campaign]: campaign })) > 0)
    await new Promise((resolve) => setTimeout(resolve, 100));
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

export function guardCampaign(
  outDir: string,
  options: CampaignOptions,
  opened: OpenedEngines,
  campaignId: string,
  release: () => Promise<void>,
  log: NodeJS.WritableStream,
): CampaignGuard {
  const { client, session, gate, sandboxes } = opened;
  const live = new Set<Sandbox>();
  const guard: CampaignGuard = { live, interrupted: false, campaign: campaignId, close };
  // Started before the first container: whatever ends this process, they go.
  const reaper = startReaper(
    client,
    { [LABELS.session]: session },
    { scratch: options.scratch, mounts: campaignFiles(outDir).work },
  );
  // The other engines' containers too, where the reaper can reach them (sockets, tcp://, TLS; not ssh://).
  const otherReapers =
    sandboxes instanceof EnginePool
      ? sandboxes
          .clients()
          .slice(1)
          .filter((c) => c.endpoint)
          .map((c) => startReaper(c, { [LABELS.session]: session }))
      : [];
  if (options.scratch) sweepStaleScratch(path.dirname(options.scratch));
  const stopWatch = watchEngine(client, options.engineWatch);

  const unregister = onInterrupt(async (signal, deadline) => {
    guard.interrupted = true;
    gate.close();
    log.write(`\nevalrig: ${signal}: removing this campaign's containers\n`);
    // Creations in flight land first, so the removal by label sees them.
    await until(gate.settled(), deadline - 1500);
    const removed = await until(removeAll(sandboxes, guard.campaign), deadline - 300);
    if (!removed) {
      log.write(
        `evalrig: the Docker engine at ${client.where} did not answer: containers labelled ${LABELS.campaign}=${guard.campaign} may remain; evalrig's reaper keeps removing them for a minute, else: docker rm -f $(docker ps -aq --filter label=${LABELS.campaign}=${guard.campaign})\n`,
      );
    }
    // Quotas of the runs in flight: unmounted before exit (a killed orchestrator's, at the next start).
    await until(sweepQuotas(campaignFiles(outDir).work), deadline - 200);
    await until(release(), deadline);
  });

  async function close(): Promise<void> {
    stopWatch();
    if (guard.interrupted) {
      // The signal's clean-up owns the exit; nothing more happens here.
      await new Promise<never>(() => {});
    }
    unregister();
    await Promise.all([...live].map((c) => c.remove().catch(() => undefined)));
    await release();
    reaper.release();
    for (const r of otherReapers) r.release();
  }
  return guard;
}
