/**
 * The `play` phase of `--until-decided`: the planned runs in rounds (round r plays run r of
 * every (eval, condition)), a look of the sequential test after each, recorded in
 * sequential.json before the next round starts; the campaign stops at the first decision. A
 * folder already decided plays nothing more, whatever the flags of the resume.
 */
import { readRun, readSequential, writeSequential } from '../../campaign-folder/index.js';
import { noFailures, type FailureClass } from '../../measure/index.js';
import { InputError } from '../../errors/index.js';
import type { CampaignGrader } from '../../judge/index.js';
import { runLayout } from '../layout.js';
import type { CampaignOptions } from '../options.js';
import type { PlannedRun } from '../plan.js';
import type { OpenedEngines } from '../phases/engines.js';
import type { CampaignGuard } from '../phases/guard.js';
import type { CampaignImages } from '../phases/images.js';
import { playCampaign, type PlayedRuns } from '../phases/play.js';
import type { ResolvedCampaign } from '../phases/resolve.js';
import type { CampaignSetup } from '../phases/setup.js';
import { sameDesign, type DesignRecord } from './design.js';
import { countsOf, sequentialFile, withLook } from './looks.js';

/** What the rounds played, and what the test decided. */
export interface DecidedRuns extends PlayedRuns {
  readonly decision: string;
  readonly text: string;
  /** Planned runs the decision kept from playing. */
  readonly notPlayed: number;
}

/** The looks already taken in the folder under this design (none in a new folder). */
async function recordedLooks(outDir: string, design: DesignRecord) {
  const read = await readSequential(outDir);
  if (read.status === 'missing') return undefined;
  if (read.status === 'broken')
    throw new InputError(
      `${read.problem}: the sequential test's record is broken and its looks cannot be trusted; choose another --out`,
    );
  sameDesign(outDir, read.value.design, design);
  return read.value;
}

export async function playUntilDecided(
  design: DesignRecord,
  outDir: string,
  options: CampaignOptions,
  opened: OpenedEngines,
  resolved: ResolvedCampaign,
  images: CampaignImages,
  setup: CampaignSetup,
  guard: CampaignGuard,
  grader: CampaignGrader | undefined,
  log: NodeJS.WriteStream,
): Promise<DecidedRuns> {
  let file = (await recordedLooks(outDir, design)) ?? sequentialFile(design, []);
  const done = {
    todo: [] as PlannedRun[],
    played: 0,
    failed: 0,
    timedOut: 0,
    limitReached: 0,
    budgetCut: 0,
    failedBy: noFailures(),
    retried: 0,
  };
  const rounds = design.max_runs_per_eval;
  for (let round = 1; round <= rounds && file.decision === 'go_on'; round++) {
    const inRound = resolved.planned.filter((p) => p.run === round);
    const runs = await playCampaign(
      outDir,
      options,
      opened,
      { ...resolved, planned: inRound },
      images,
      setup,
      guard,
      grader,
      log,
    );
    done.todo.push(...runs.todo);
    done.played += runs.played;
    done.failed += runs.failed;
    done.timedOut += runs.timedOut;
    done.limitReached += runs.limitReached;
    done.budgetCut += runs.budgetCut;
    done.retried += runs.retried;
    for (const [k, v] of Object.entries(runs.failedBy)) done.failedBy[k as FailureClass] += v;
    if (guard.interrupted) break;
    const upTo = resolved.planned.filter((p) => p.run <= round);
    const looks = withLook(design, file.looks, await countsOf(outDir, design, upTo));
    if (looks.length > file.looks.length) {
      file = sequentialFile(design, looks);
      // Recorded before the next round: a resume takes up from this look, or plays nothing.
      await writeSequential(outDir, file);
      log.write(`evalrig: sequential test, look ${looks.length}: ${file.text}\n`);
    }
  }
  if (file.decision !== 'go_on') log.write(`evalrig: ${file.text}\n`);
  const notPlayed = file.decision === 'go_on' ? 0 : await unplayed(outDir, resolved.planned);
  return { ...done, decision: file.decision, text: file.text, notPlayed };
}

/** Planned runs with no record in the folder: the ones the decision kept from playing. */
async function unplayed(outDir: string, planned: readonly PlannedRun[]): Promise<number> {
  let n = 0;
  for (const p of planned)
    if ((await readRun(runLayout(outDir, p.key).dir)).status === 'missing') n++;
  return n;
}
