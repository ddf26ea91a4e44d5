/**
 * The `engines` phase of a campaign: the engines reached and described, the
 * campaign's own view of the first (its health, creation gate and session
 * label), and the provider every run's sandbox starts from.
 */
import { randomBytes } from 'node:crypto';
import { refuseBeyondEngine, type EvalSet } from '../../config/index.js';
import {
  CreationGate,
  EngineHealth,
  LABELS,
  connectDocker,
  pingDocker,
  type DockerClient,
} from '../../runtime/index.js';
import {
  EnginePool,
  LocalDockerProvider,
  connectEngine,
  enginePoolOf,
  type SandboxProvider,
} from '../../sandbox/index.js';
import type { CampaignOptions } from '../options.js';
import { describeEngines } from '../engine-setup.js';

/** The engines a campaign runs on, as its phases use them. */
export interface OpenedEngines {
  /** The first engine, as this campaign sees it: images are built here. */
  readonly client: DockerClient;
  /** The session label its reaper removes by. */
  readonly session: string;
  readonly gate: CreationGate;
  readonly health: EngineHealth;
  readonly sandboxes: SandboxProvider;
  /** How many runs play at once, over every engine. */
  readonly slots: number;
}

export async function openEngines(
  options: CampaignOptions,
  evalSet: EvalSet,
  jobs: number,
): Promise<OpenedEngines> {
  const first = options.engines?.[0];
  const base = options.client ?? (first ? connectEngine(first.address) : connectDocker());
  await pingDocker(base);
  // This campaign's own view of the engine: its health, its gate on creations,
  // and the session label its reaper removes by.
  const session = randomBytes(8).toString('hex');
  const gate = new CreationGate();
  const health = new EngineHealth();
  const client: DockerClient = {
    ...base,
    health,
    gate,
    labels: { ...base.labels, [LABELS.session]: session },
  };
  // Today's one engine, its folders mounted: where every run's sandbox starts.
  // Several engines, or one that cannot see the host's disk: a pool over them, `jobs` runs on each.
  const engines = options.engines ?? [];
  const spread = engines.length > 1 || (engines.length === 1 && !engines[0]!.mounts);
  const sandboxes =
    options.sandboxes?.(client) ??
    (spread
      ? enginePoolOf(client, engines, jobs, options.engineWatch)
      : new LocalDockerProvider(client));
  const slots = sandboxes instanceof EnginePool ? sandboxes.slots : jobs;
  // Who each engine is. Resources an engine cannot give fail every run at it: refuse before anything is created.
  const described = await describeEngines(sandboxes, options.evalSetFile, evalSet);
  if (described.length === 0)
    await refuseBeyondEngine(options.evalSetFile, evalSet, () => client.docker.info());
  return { client, session, gate, health, sandboxes, slots };
}
