/**
 * The `reuse` phase of a campaign: every planned run's fingerprint (its inputs hashed, once the
 * images are built and the agent is ready; each played run's run.json records it), and with
 * `--reuse`, the runs an earlier campaign finished with the same fingerprint copied here
 * instead of played, said per condition before anything plays.
 */
import type { RunRecord } from '../../artifacts/index.js';
import { copySourceRun, setAsideCallLogs } from '../../campaign-folder/index.js';
import { GRADING_RUBRIC_RECORD, type CampaignGrader } from '../../judge/index.js';
import { cacheRoot } from '../../source/index.js';
import type { CampaignOptions } from '../options.js';
import { runLayout } from '../layout.js';
import type { PlannedRun } from '../plan.js';
import {
  campaignFileInputs,
  decideRun,
  fingerprintOf,
  gradingChanges,
  reuseLine,
  runInputs,
  type Decided,
  type Fingerprint,
  type ReuseSource,
  type RunDecision,
} from '../reuse/index.js';
import { agentUserOfRuns } from '../run/context.js';
import { isFinished } from './folder.js';
import type { CampaignImages } from './images.js';
import type { ResolvedCampaign } from './resolve.js';
import type { CampaignSetup } from './setup.js';

/** What the `reuse` phase did. */
export interface ReusePhase {
  /** Every planned run's fingerprint, by its key. */
  readonly fingerprints: ReadonlyMap<string, Fingerprint>;
  /** Runs copied from the `--reuse` folders. */
  readonly reused: number;
}

export interface ReuseInputs {
  readonly outDir: string;
  readonly options: CampaignOptions;
  readonly resolved: ResolvedCampaign;
  readonly images: CampaignImages;
  readonly setup: CampaignSetup;
  readonly sources: readonly ReuseSource[];
  readonly grader: CampaignGrader | undefined;
  readonly log: NodeJS.WritableStream;
}

const SILENT = { write: () => true } as unknown as NodeJS.WritableStream;

export async function reuseRuns(given: ReuseInputs, campaign: string): Promise<ReusePhase> {
  const phase = { ...given, campaign };
  const { outDir, options, resolved, images, setup, sources, log } = phase;
  const { evalSet, planned } = resolved;
  // What campaigns write (this one, those reused, the codebases' cache) is no run's input.
  const written = [outDir, ...sources.map((s) => s.dir), cacheRoot({ cacheDir: options.cacheDir })];
  const own = await campaignFileInputs(evalSet, planned, written);
  const inputs = {
    evalSet,
    stopAtHandOver: Boolean(options.stopAtHandOver),
    ...(options.timeoutS === undefined ? {} : { timeoutS: options.timeoutS }),
    image: images.image,
    images: images.environments.images,
    services: images.services,
    setups: setup.setups,
    codebases: setup.codebases,
    ...(setup.agents ? { agents: setup.agents } : {}),
    agentUser: agentUserOfRuns(),
    files: own.files,
  };
  const fingerprints = new Map(
    planned.map((p) => [p.key, fingerprintOf(runInputs(inputs, p))] as const),
  );
  if (sources.length === 0) return { fingerprints, reused: 0 };
  if (own.refused) {
    log.write(`evalrig: reuse: nothing reused: ${own.refused}, too many to fingerprint\n`);
    return { fingerprints, reused: 0 };
  }
  const decided: Decided[] = [];
  const regraded = new Map<string, number>();
  for (const p of planned) {
    const decision = (await isFinished(outDir, p, SILENT))
      ? ({ kind: 'here' } as const)
      : await reuseOne(phase, p, fingerprints.get(p.key)!, regraded);
    if (decision.kind === 'play' && decision.warning)
      log.write(`evalrig: warning: ${decision.warning}; it is played\n`);
    decided.push({ planned: p, decision });
  }
  log.write(`${reuseLine(decided, sources)}\n`);
  for (const [why, n] of regraded)
    log.write(`evalrig: reuse: ${why} changed: ${n} reused run(s) are graded again\n`);
  return { fingerprints, reused: decided.filter((d) => d.decision.kind === 'reused').length };
}

/** Decides one run not finished here, and copies it when it is reused. */
async function reuseOne(
  phase: ReuseInputs & { readonly campaign: string },
  planned: PlannedRun,
  fingerprint: Fingerprint,
  regraded: Map<string, number>,
): Promise<RunDecision> {
  const decision = await decideRun(phase.sources, planned, fingerprint);
  if (decision.kind !== 'reused') return decision;
  const { source, run } = decision;
  const earlier = run.stored.record;
  const record: RunRecord = {
    ...earlier,
    campaign: phase.campaign,
    fingerprint,
    // A run reused again names the campaign that played it.
    reused_from: earlier.reused_from ?? {
      campaign: source.campaign,
      folder: source.dir,
      run: planned.key,
      fingerprint: fingerprint.sha256,
    },
  };
  const changes =
    phase.grader && run.grading
      ? gradingChanges(
          run.grading,
          { judge: phase.grader.judge, rubric: GRADING_RUBRIC_RECORD },
          planned.eval.expectations,
        )
      : undefined;
  if (changes && changes.length > 0) {
    const why = changes.join(' and ');
    regraded.set(why, (regraded.get(why) ?? 0) + 1);
  }
  const layout = runLayout(phase.outDir, planned.key);
  // What an unfinished attempt in this folder spent stays counted (it is set aside).
  await setAsideCallLogs(phase.outDir, layout.dir, planned.key);
  const copied = await copySourceRun(run, layout.dir, record, changes?.length === 0);
  if (copied.status === 'ok') return decision;
  const problem = copied.status === 'broken' ? copied.problem : `${copied.file} is missing`;
  return {
    kind: 'play',
    why: `could not be copied from ${source.folder}`,
    warning: `--reuse ${source.folder}: ${planned.key}: ${problem}`,
  };
}
