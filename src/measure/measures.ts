import type {
  CheckResult,
  DiffCounters,
  GhCall,
  PullAtStop,
  RunMeasures,
  RunStatus,
  StopRecord,
} from '../artifacts/index.js';
import type { FailureClass } from './failure.js';

/** Everything one run gives the measures; the campaign runner fills it from what it collected. */
export interface MeasureInput {
  /** The stops the run reached, in turn order (a timed-out run's cut turn has none). */
  readonly stops: readonly StopRecord[];
  /** The eval's checks, run after the last turn. */
  readonly checks: readonly CheckResult[];
  /** The work tree against refs/evalrig/baseline at the end of the run. */
  readonly diff: DiffCounters;
  readonly turnsCompleted: number;
  readonly durationMs: number;
  /** The run stopped at the first hand over (`--stop-at-hand-over`): execution was not played. */
  readonly stoppedAtHandOver: boolean;
  readonly status: RunStatus;
  /** Every gh call of the run (the union of the stops' calls, plus any made after the last stop). */
  readonly allCalls: readonly GhCall[];
  /**
   * Phases that belong to execution. Absent: every phase but `planning` is execution.
   * Present: a stop is of execution when its phase is listed, of planning otherwise.
   */
  readonly executionPhases?: readonly string[];
  /** The agent's own record (the gh record in the repository, its stream) differs from the host's witness. */
  readonly tampered?: boolean;
  /** The treatment check: every staged instruction reached the model (null: nothing to check). */
  readonly conditionReached?: boolean | null;
  /** The model used a staged skill (observational; null: none staged or no gateway). */
  readonly skillUsed?: boolean | null;
  /** How many checks the eval declares (the run may have ended before they ran). */
  readonly checksDeclared?: number;
  /** Who had control when the run did not complete (absent: it completed, or a limit ended it). */
  readonly failure?: FailureClass;
  /** Lines (added and removed) of the eval's reference diff; absent: it has none. */
  readonly referenceLines?: number;
}

/** The phase every other is told apart from when no execution phases are declared. */
export const PLANNING_PHASE = 'planning';

/**
 * Whether the pull request at a stop carries the description the workflow
 * expected then. null: nothing to compare with (no description probe).
 *
 * A stop with no pull request fails the test when a description was expected
 * (the probe ran); with no probe at all it says nothing.
 */
export function describedAtStop(stop: StopRecord): boolean | null {
  const pull: PullAtStop | null = stop.pull;
  if (pull !== null && pull.described !== null) return pull.described;
  const probed = Object.prototype.hasOwnProperty.call(stop.probes, 'description');
  if (pull === null && probed) return false;
  return null;
}

/** All of the known values hold; null when none is known. */
function allKnown(values: ReadonlyArray<boolean | null>): boolean | null {
  const known = values.filter((v): v is boolean => v !== null);
  if (known.length === 0) return null;
  return known.every((v) => v);
}

/**
 * The per-run measures, computed from what was read at the stops. Pure: same
 * input, same output. The rules, with why, are in ./README.md.
 *
 * @example
 * const measures = measureRun({ stops, checks, diff, turnsCompleted: 2, durationMs: 61_000,
 *   stoppedAtHandOver: false, status: 'completed', allCalls });
 * measures.pr_draft_at_hand_over; // true when every hand over showed a draft
 */
export function measureRun(input: MeasureInput): RunMeasures {
  const phases = input.executionPhases;
  const isExecution = phases
    ? (stop: StopRecord) => phases.includes(stop.phase)
    : (stop: StopRecord) => stop.phase !== PLANNING_PHASE;

  const handOvers = input.stops.filter((s) => s.hand_over);
  const pr_draft_at_hand_over =
    handOvers.length === 0 ? null : handOvers.every((s) => s.pull !== null && s.pull.draft);

  const planningHandOvers = handOvers.filter((s) => !isExecution(s));
  const pr_described = allKnown(planningHandOvers.map(describedAtStop));

  let pr_refreshed: boolean | null = null;
  const executionStops = input.stops.filter(isExecution);
  if (!input.stoppedAtHandOver && executionStops.length > 0) {
    const handing = executionStops.filter((s) => s.hand_over);
    const looked = handing.length > 0 ? handing : executionStops.slice(-1);
    pr_refreshed = allKnown(looked.map(describedAtStop));
  }

  // Marked ready is a promise about the whole chain: an unplayed execution
  // cannot keep or break it, so it stays null; but a planning that already
  // marked ready did break it.
  const askedReady = input.allCalls.some((c) => c.marks_ready);
  const pr_marked_ready = askedReady ? true : input.stoppedAtHandOver ? null : false;

  const gh_not_played = input.allCalls.filter((c) => !c.played).length;
  const checks_passed = checksPassed(input);

  const d = input.diff;
  return {
    pr_draft_at_hand_over,
    pr_described,
    pr_refreshed,
    pr_marked_ready,
    gh_not_played,
    checks_passed,
    environment_broken: input.status === 'broken',
    record_tampered: Boolean(input.tampered),
    condition_reached: input.conditionReached ?? null,
    skill_used: input.skillUsed ?? null,
    files_changed: d.files_added + d.files_modified + d.files_deleted,
    lines_added: d.lines_added,
    lines_removed: d.lines_removed,
    turns: input.turnsCompleted,
    duration_s: Math.max(0, input.durationMs) / 1000,
    // Against a known-good answer's size: far above 1 is churn, far below may be a shortcut.
    diff_vs_reference:
      input.referenceLines && input.referenceLines > 0
        ? (d.lines_added + d.lines_removed) / input.referenceLines
        : null,
  };
}

/**
 * Every check passed. A run that failed while the agent had control (its crash, a time-out,
 * the model API) before its checks ran did not pass them: counted against its condition, not
 * left out. With no checks declared, or a harness failure, nothing is known.
 */
function checksPassed(input: MeasureInput): boolean | null {
  if (input.checks.length > 0) return input.checks.every((c) => c.passed);
  const counted = input.failure !== undefined && input.failure !== 'harness';
  return counted && (input.checksDeclared ?? 0) > 0 ? false : null;
}

/** The lines a patch adds and removes (its `+` and `-` lines, the file headers not counted). */
export function patchLines(patch: string): number {
  let n = 0;
  for (const line of patch.split('\n')) {
    if (
      (line.startsWith('+') && !line.startsWith('+++')) ||
      (line.startsWith('-') && !line.startsWith('---'))
    )
      n++;
  }
  return n;
}

/** Measures in the order reports show them, split by kind. */
export const RATE_MEASURES = [
  'pr_draft_at_hand_over',
  'pr_described',
  'pr_refreshed',
  'pr_marked_ready',
  'checks_passed',
  'environment_broken',
  'record_tampered',
  'condition_reached',
] as const satisfies ReadonlyArray<keyof RunMeasures>;

export const NUMBER_MEASURES = [
  'gh_not_played',
  'files_changed',
  'lines_added',
  'lines_removed',
  'turns',
  'duration_s',
  'diff_vs_reference',
] as const satisfies ReadonlyArray<keyof RunMeasures>;

export type RateMeasure = (typeof RATE_MEASURES)[number];
export type NumberMeasure = (typeof NUMBER_MEASURES)[number];
