/**
 * The `play` phase of a campaign: the runs not finished yet, prepared ahead
 * and played in a pool of slots, each graded off the critical path; a lost
 * engine stops the campaign with what to do.
 */
import path from 'node:path';
import { campaignFiles, setAsideCallLogs } from '../../campaign-folder/index.js';
import { EvalrigError } from '../../errors/index.js';
import { failureOf, leftOut, noFailures, type FailureClass } from '../../measure/index.js';
import { BodyBudget, CAMPAIGN_BODY_BUDGET } from '../../gateway/index.js';
import type { CampaignGrader } from '../../judge/index.js';
import type { CampaignOptions } from '../options.js';
import type { PlannedRun } from '../plan.js';
import { runPipeline } from '../pool.js';
import { Progress } from '../progress.js';
import { discardPreparedRun, playRun, prepareRun, type CampaignContext } from '../run-one.js';
import type { OpenedEngines } from './engines.js';
import { isFinished } from './folder.js';
import type { CampaignGuard } from './guard.js';
import type { CampaignImages } from './images.js';
import type { ResolvedCampaign } from './resolve.js';
import type { CampaignSetup } from './setup.js';

/** What the `play` phase did. */
export interface PlayedRuns {
  readonly todo: readonly PlannedRun[];
  readonly played: number;
  readonly failed: number;
  /** The failed runs by who had control. */
  readonly failedBy: Readonly<Record<FailureClass, number>>;
  readonly timedOut: number;
  /** Runs that reached one of their limits (`limits`). */
  readonly limitReached: number;
  /** Runs the campaign's budget cut (a resume with a larger budget plays them). */
  readonly budgetCut: number;
  /** Runs the harness failed once and this command played once more. */
  readonly retried: number;
}

/** What every run of this campaign shares. */
function contextOf(
  outDir: string,
  options: CampaignOptions,
  opened: OpenedEngines,
  resolved: ResolvedCampaign,
  images: CampaignImages,
  setup: CampaignSetup,
  guard: CampaignGuard,
): CampaignContext {
  const { image, environments } = images;
  const { agents } = setup;
  return {
    campaign: guard.campaign,
    outDir,
    evalSet: resolved.evalSet,
    sandboxes: opened.sandboxes,
    image: { tag: image.tag, id: image.id },
    images: environments.images,
    setups: setup.setups,
    codebases: setup.codebases,
    stopAtHandOver: Boolean(options.stopAtHandOver),
    timeoutS: options.timeoutS,
    keepWorkspaces: Boolean(options.keepWorkspaces),
    maxOutputBytes: 1024 * 1024,
    maxPatchBytes: 1024 * 1024,
    ...(agents
      ? {
          agents,
          modelBudget: new BodyBudget(CAMPAIGN_BODY_BUDGET),
          treatments: resolved.treatments,
        }
      : {}),
    engines: setup.engineRecords,
    ...(setup.fingerprints ? { fingerprints: setup.fingerprints } : {}),
    budget: resolved.spending.budget,
    limiters: resolved.spending.limiters,
    ...(images.services.size > 0 ? { services: images.services } : {}),
    live: guard.live,
    quotaOwner: guard.quotaOwner,
    removals: [],
    cut: () => guard.interrupted,
  };
}

export async function playCampaign(
  outDir: string,
  options: CampaignOptions,
  opened: OpenedEngines,
  resolved: ResolvedCampaign,
  images: CampaignImages,
  setup: CampaignSetup,
  guard: CampaignGuard,
  grader: CampaignGrader | undefined,
  log: NodeJS.WriteStream,
): Promise<PlayedRuns> {
  const { planned } = resolved;
  const { health, slots } = opened;
  const todo: PlannedRun[] = [];
  for (const p of planned) if (!(await isFinished(outDir, p, log))) todo.push(p);
  // A run replayed empties its folder: what it spent is kept aside and stays counted.
  const runsDir = campaignFiles(outDir).runs;
  for (const p of todo) await setAsideCallLogs(outDir, path.join(runsDir, p.key), p.key);
  const progress = new Progress(todo.length, planned.length - todo.length, log);
  progress.start();

  const ctx = contextOf(outDir, options, opened, resolved, images, setup, guard);
  let failed = 0;
  const failedBy = noFailures();
  let timedOut = 0;
  let limitReached = 0;
  let budgetCut = 0;
  let played = 0;
  const lostInFlight: string[] = [];
  // Runs the harness failed, played once more after the others (a second failure stays).
  const again: PlannedRun[] = [];
  const round = (runs: readonly PlannedRun[], last: boolean) =>
    runPipeline(
      runs,
      slots,
      {
        prepare: (p) => prepareRun(ctx, p),
        play: async (prepared) => {
          const outcome = await playRun(ctx, prepared);
          if (guard.interrupted) return;
          if (health.lost && outcome.status === 'failed') {
            lostInFlight.push(prepared.planned.key);
            return;
          }
          if (!last && failureOf(outcome.record)?.class === 'harness') {
            again.push(prepared.planned);
            log.write(
              `evalrig: ${prepared.planned.key}: failed for the harness (${outcome.record.error}); playing it once more\n`,
            );
            return;
          }
          played++;
          // Graded off the run's critical path; the sweep below awaits it (and reports a failure).
          if (grader && !leftOut(outcome.record)) {
            const p = prepared.planned;
            grader.gradeRun(p.eval.id, p.condition.name, p.run).catch(() => undefined);
          }
          if (outcome.status === 'failed') {
            failed++;
            failedBy[failureOf(outcome.record)?.class ?? 'harness']++;
          }
          if (outcome.status === 'timed_out') timedOut++;
          if (outcome.record.limit === 'campaign_cost') budgetCut++;
          else if (outcome.status === 'limit_reached') limitReached++;
          const r = outcome.record;
          const detail = r.error ? `failed: ${r.error}` : r.status;
          progress.finished(
            prepared.planned.key,
            detail,
            r.duration_ms / 1000,
            r.status === 'failed',
          );
        },
        discard: (prepared) => discardPreparedRun(ctx, prepared),
      },
      () => guard.interrupted || health.lost !== undefined,
      options.prepareAhead ?? slots,
    );
  await round(todo, false);
  if (again.length > 0 && !guard.interrupted && health.lost === undefined) {
    // The failed plays' sandboxes and workspaces go first: their run folders are reused.
    await Promise.all(ctx.removals);
    // What the failed play spent stays counted, as for a replay on resume.
    for (const p of again) await setAsideCallLogs(outDir, path.join(runsDir, p.key), p.key);
    await round(again, true);
  }
  await Promise.all(ctx.removals);
  progress.end();
  if (health.lost) {
    const notStarted = todo.length - played - lostInFlight.length;
    throw new EvalrigError(
      `${health.lost.message}: the campaign stopped; ${lostInFlight.length} run(s) in flight recorded as failed by the engine (${lostInFlight.join(', ') || 'none'}), ${notStarted} not started; run the same command again once the engine answers to finish them`,
      { exitCode: 1, cause: health.lost },
    );
  }
  const retried = again.length;
  return { todo, played, failed, failedBy, timedOut, limitReached, budgetCut, retried };
}
