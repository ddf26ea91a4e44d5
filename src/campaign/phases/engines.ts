/**
 * The `engines` phase of a campaign: the engines reached and described, and
 * the provider every run's sandbox starts from (its session label, creation
 * gate, health and slots are its own: src/sandbox/connect.ts). It is opened
 * by the guard, once the folder is the campaign's.
 */
import { refuseBeyondEngine, type EvalSet } from '../../config/index.js';
import { connectProvider, type DockerClient, type SandboxProvider } from '../../sandbox/index.js';
import type { CampaignOptions } from '../options.js';
import { describeEngines } from '../engine-setup.js';

/** The engines a campaign runs on, as its phases use them. */
export interface OpenedEngines {
  /** The first engine, as this campaign's provider sees it, when it is a Docker one. */
  readonly client?: DockerClient;
  readonly sandboxes: SandboxProvider;
  /** The first engine's health: lost, the campaign stops (the runs in flight fail by the engine). */
  readonly health: { readonly lost: Error | undefined };
  /** How many runs play at once, over every engine. */
  readonly slots: number;
}

export async function openEngines(
  options: CampaignOptions,
  evalSet: EvalSet,
  jobs: number,
): Promise<OpenedEngines> {
  const { sandboxes, client, capacity } = await connectProvider({
    engines: options.engines,
    ...(options.imageRegistry ? { imageRegistry: options.imageRegistry } : {}),
    client: options.client,
    jobs,
    custom: options.sandboxes,
  });
  const slots = sandboxes.slots ?? jobs;
  // Who each engine is. Resources an engine cannot give fail every run at it: refuse before anything is created.
  const described = await describeEngines(sandboxes, options.evalSetFile, evalSet);
  // A provider that describes nothing may still say its capacity (asked of it, never of Docker here).
  if (described.length === 0 && capacity)
    await refuseBeyondEngine(options.evalSetFile, evalSet, capacity);
  // Without a Docker client, the provider's own watch says when its backend is lost.
  const health = client?.health ?? {
    get lost() {
      return sandboxes.lost?.();
    },
  };
  return { client, sandboxes, health, slots };
}
