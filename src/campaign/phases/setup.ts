/**
 * The `setup` phase of a campaign: every engine preflighted with a
 * locked-down container, the codebases materialized, the agent installed and
 * answering (or a command agent's program found), the setup commands run
 * once per (commit, image). Nothing is played before all of it succeeds.
 */
import path from 'node:path';
import type { EngineRecord } from '../../artifacts/index.js';
import type { SetupOutput } from '../../image/index.js';
import { LABELS } from '../../sandbox/index.js';
import { materializeCodebase, type ResolvedCodebase } from '../../source/index.js';
import { prepareCampaignAgents, type CampaignAgents } from '../agent.js';
import type { CampaignOptions } from '../options.js';
import { preflightCommand } from '../command-preflight.js';
import { preflightEngines } from '../engine-setup.js';
import { ensureSetups } from '../environments.js';
import { CONTAINER } from '../layout.js';
import type { PlannedRun } from '../plan.js';
import type { Fingerprint } from '../reuse/fingerprint.js';
import { agentUserOfRuns, repositoryName } from '../run/context.js';
import type { OpenedEngines } from './engines.js';
import type { CampaignImages } from './images.js';
import type { ResolvedCampaign } from './resolve.js';

/** What the runs share once the campaign is set up. */
export interface CampaignSetup {
  readonly codebases: Map<string, { resolved: ResolvedCodebase; cachePath: string }>;
  /** The adapter agents by condition name (a cross-agent campaign has several). */
  readonly agents: CampaignAgents | undefined;
  readonly setups: Map<string, SetupOutput>;
  readonly engineRecords: ReadonlyMap<string, EngineRecord>;
  /** Each planned run's fingerprint by its key, once the `reuse` phase made them. */
  readonly fingerprints?: ReadonlyMap<string, Fingerprint>;
}

export async function setupCampaign(
  options: CampaignOptions,
  opened: OpenedEngines,
  resolved: ResolvedCampaign,
  images: CampaignImages,
  campaign: string,
  log: NodeJS.WritableStream,
): Promise<CampaignSetup> {
  const { sandboxes } = opened;
  const { evalSet, planned } = resolved;
  const { image, environments } = images;
  const plannedEvals = evalSet.evals.filter((e) => planned.some((p) => p.eval.id === e.id));
  // A locked-down container on every engine, while the agent and setups get ready; awaited before any run.
  const preflight = preflightEngines(sandboxes, {
    image: image.tag,
    evalSet,
    labels: { [LABELS.campaign]: campaign },
    log,
  });
  preflight.catch(() => undefined);

  const codebases = await materializeCodebases(options, resolved, log);

  // Each adapter agent is installed and must answer in every image before anything is played.
  const agents = await prepareCampaignAgents({
    sandboxes,
    evalSet,
    planned,
    images: [image.tag, ...[...environments.images.values()].map((i) => i.tag)],
    campaign,
    log,
  });
  // A command agent's program must exist in every image its runs start it in.
  if (!agents) {
    await preflightCommand({
      sandboxes,
      evalSet,
      planned,
      imageOf: (p: PlannedRun) => environments.images.get(p.eval.id)?.tag ?? image.tag,
      user: agentUserOfRuns(),
      campaign,
    });
  }

  // Setup commands run once per (commit, image), before any run; every run reuses their output.
  const setups = await ensureSetups({
    sandboxes,
    evalSet,
    evals: plannedEvals,
    images: environments.images,
    codebases,
    containerWorkTree: (e) =>
      path.posix.join(CONTAINER.workRoot, repositoryName(evalSet, codebases.get(e.id)?.resolved)),
    cacheDir: options.cacheDir,
    campaign,
    log,
  });

  const engineRecords = await preflight;
  return { codebases, agents, setups, engineRecords };
}

/** Each planned codebase's cached clone, one per commit however many evals share it. */
async function materializeCodebases(
  options: CampaignOptions,
  resolved: Pick<ResolvedCampaign, 'withCodebase' | 'resolvedList'>,
  log: NodeJS.WritableStream,
): Promise<Map<string, { resolved: ResolvedCodebase; cachePath: string }>> {
  const { withCodebase, resolvedList } = resolved;
  const codebases = new Map<string, { resolved: ResolvedCodebase; cachePath: string }>();
  const byCommit = new Map<string, Promise<string>>();
  await Promise.all(
    withCodebase.map(async (e, i) => {
      const resolved = resolvedList[i] as ResolvedCodebase;
      let cached = byCommit.get(resolved.commit);
      if (!cached) {
        cached = materializeCodebase(resolved, {
          cacheDir: options.cacheDir,
          onWarning: (w) => log.write(`evalrig: warning: ${w}\n`),
        });
        byCommit.set(resolved.commit, cached);
      }
      codebases.set(e.id, { resolved, cachePath: await cached });
    }),
  );
  return codebases;
}
