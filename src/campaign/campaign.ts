import path from 'node:path';
import type { PhaseTiming } from '../artifacts/index.js';
import { describeGradeSummary, type GradeSummary } from '../judge/index.js';
import { writeConditions } from './phases/conditions.js';
import { openEngines } from './phases/engines.js';
import { claimFolder, folderError, newCampaignId } from './phases/folder.js';
import { guardCampaign } from './phases/guard.js';
import { ensureImages } from './phases/images.js';
import { playUntilDecided, type DecidedRuns } from './decide/index.js';
import { playCampaign } from './phases/play.js';
import { recoverCampaign } from './phases/recover.js';
import { resolveCampaign, type ResolvedCampaign } from './phases/resolve.js';
import { reuseRuns } from './phases/reuse.js';
import { reuseSources } from './reuse/index.js';
import { setupCampaign } from './phases/setup.js';

import type { CampaignOptions, CampaignResult } from './options.js';

export type { CampaignOptions, CampaignResult };

/**
 * From an eval set to a folder of recorded runs: validate, resolve codebases,
 * make sure the image exists, then play every (eval, condition, run) in a pool
 * of `jobs`. Finished runs of an earlier campaign in the same folder are
 * skipped; unfinished ones are redone.
 */
export async function runCampaign(options: CampaignOptions): Promise<CampaignResult> {
  const outDir = path.resolve(options.outDir);
  try {
    return await campaignIn(outDir, options);
  } catch (error) {
    throw folderError(outDir, error);
  }
}

/**
 * The campaign's phases in order (src/campaign/phases/): resolve, engines,
 * folder, recover, images, setup, conditions, reuse, play, grade. The guard (reapers,
 * watch, signal clean-up) stands from the folder's claim to the end.
 */
async function campaignIn(outDir: string, options: CampaignOptions): Promise<CampaignResult> {
  const log = options.log ?? process.stderr;
  const phases: PhaseTiming[] = [];
  const timed = phaseTimer(phases);
  const resolved = await timed('resolve', () => resolveCampaign(outDir, options, log));
  const { evalSet, planned, previous } = resolved;
  // The folders runs are reused from are checked now: a wrong one refuses before anything is built.
  const sources = await reuseSources(outDir, options.reuse);
  // Spent by earlier commands: nothing is started, not even an engine.
  if (resolved.spending.budget.exhausted()) return nothingLeft(outDir, resolved, phases);
  const opened = await timed('engines', () => openEngines(options, evalSet, resolved.jobs));
  const release = await timed('folder', () => claimFolder(outDir, previous, evalSet));
  const campaignId = previous?.campaign ?? newCampaignId(evalSet.name);
  const guard = await guardCampaign(outDir, options, opened, campaignId, release, log);
  try {
    const grader = await timed('recover', () =>
      recoverCampaign(outDir, evalSet, opened.sandboxes, guard.campaign, log, resolved.spending),
    );
    const images = await timed('images', () =>
      ensureImages(outDir, options, opened, evalSet, planned, previous, log),
    );
    const setup = await timed('setup', () =>
      setupCampaign(options, opened, resolved, images, guard.campaign, log),
    );
    const conditions = await timed('conditions', () =>
      writeConditions(outDir, options, resolved, images, setup, guard.campaign),
    );
    guard.campaign = conditions.campaign;
    const reuse = await timed('reuse', () =>
      reuseRuns({ outDir, options, resolved, images, setup, sources, grader, log }, guard.campaign),
    );
    const fingerprinted = { ...setup, fingerprints: reuse.fingerprints };
    const design = resolved.sequential;
    const runs = await timed('play', () =>
      design
        ? playUntilDecided(
            design,
            outDir,
            options,
            opened,
            resolved,
            images,
            fingerprinted,
            guard,
            grader,
            log,
          )
        : playCampaign(
            outDir,
            options,
            opened,
            resolved,
            images,
            fingerprinted,
            guard,
            grader,
            log,
          ),
    );
    const decided = design ? (runs as DecidedRuns) : undefined;
    // Every finished run is graded (the ones played now, earlier ones without a good grading),
    // then the blind comparisons: unchanged answers come from their files, no call.
    let grading: GradeSummary | undefined;
    if (grader && !guard.interrupted) {
      grading = await timed('grade', () => grader.sweep());
      log.write(`evalrig: ${describeGradeSummary(grading)}\n`);
    }
    return {
      campaign: guard.campaign,
      outDir,
      planned: planned.length,
      skipped: planned.length - runs.todo.length - reuse.reused - (decided?.notPlayed ?? 0),
      reused: reuse.reused,
      played: runs.played,
      failed: runs.failed,
      failedBy: runs.failedBy,
      retried: runs.retried,
      timedOut: runs.timedOut,
      limitReached: runs.limitReached,
      budgetCut: runs.budgetCut,
      spentUsd: resolved.spending.budget.spent(),
      spentBeforeUsd: spentBeforeOf(resolved),
      ...(resolved.spending.budget.maxUsd === undefined
        ? {}
        : { maxCostUsd: resolved.spending.budget.maxUsd }),
      interrupted: guard.interrupted,
      ...(grading ? { grading } : {}),
      ...(decided
        ? {
            sequential: {
              decision: decided.decision,
              text: decided.text,
              notPlayed: decided.notPlayed,
            },
          }
        : {}),
      phases,
    };
  } finally {
    await guard.close();
  }
}

function spentBeforeOf(resolved: ResolvedCampaign): number {
  const before = resolved.spending.budget.before;
  return before.agent + before.judge;
}

/** The result of a campaign whose budget earlier commands spent: nothing played. */
function nothingLeft(
  outDir: string,
  resolved: ResolvedCampaign,
  phases: PhaseTiming[],
): CampaignResult {
  const budget = resolved.spending.budget;
  return {
    campaign: resolved.previous?.campaign ?? newCampaignId(resolved.evalSet.name),
    outDir,
    planned: resolved.planned.length,
    skipped: 0,
    reused: 0,
    played: 0,
    failed: 0,
    timedOut: 0,
    limitReached: 0,
    budgetCut: 0,
    spentUsd: 0,
    spentBeforeUsd: spentBeforeOf(resolved),
    maxCostUsd: budget.maxUsd!,
    nothingLeft: true,
    interrupted: false,
    phases,
  };
}

/** Runs a phase and keeps its duration in `phases` (in order, whether it succeeded or not). */
function phaseTimer(phases: PhaseTiming[]) {
  return async <T>(name: string, phase: () => Promise<T>): Promise<T> => {
    const began = performance.now();
    try {
      return await phase();
    } finally {
      phases.push({ name, ms: Math.max(0, Math.round(performance.now() - began)) });
    }
  };
}
