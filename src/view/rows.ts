import { ADAPTER_KINDS, AGENT_KINDS } from '../config/index.js';
import type { GradingFile, RunRecord, RunStatus } from '../artifacts/index.js';
import { readRuns } from '../campaign-folder/index.js';
import { readGrading, readReviewText, runFolder, readRunRecord } from '../trajectory/source.js';
import { parseReviewFile, type ReviewFile } from '../report/review-file.js';
import { checkOutcomes } from '../measure/index.js';

/** One run as the viewer lists it: small, whatever the size of its files. */
export interface RunRow {
  readonly eval: string;
  readonly condition: string;
  readonly run: number;
  readonly status: RunStatus;
  readonly error: string | null;
  readonly duration_ms: number;
  readonly turns: number;
  /** Who played it: an adapter's kind (`codex`), `command`, or its package when no kind has it. */
  readonly agent: string;
  /** What the filters select on. */
  readonly flags: {
    readonly failed_check: boolean;
    readonly tampered: boolean;
    readonly broken: boolean;
    readonly timed_out: boolean;
    readonly judge_no: boolean;
    readonly failed: boolean;
  };
  /** The run's measures, its checks as `checks.<name>`, its message checks as `message_checks.<name>`. */
  readonly measures: Readonly<Record<string, boolean | number | null>>;
  readonly judge: { readonly status: string; readonly all_passed: boolean | null } | null;
  readonly review: Pick<ReviewFile, 'verdict' | 'note' | 'updated_at'> | null;
}

/** The kind a run's agent is, from the package its record names. */
function agentOf(record: RunRecord): string {
  const pkg = record.agent?.package;
  if (pkg === undefined) return 'command';
  return ADAPTER_KINDS.find((k) => AGENT_KINDS[k].package === pkg) ?? pkg;
}

/** A run's row from its record, its grading and its review. */
export function rowOf(
  record: RunRecord,
  grading: GradingFile | null,
  review: ReviewFile | null,
): RunRow {
  const m = record.measures;
  const measures: Record<string, boolean | number | null> = { ...m };
  // The checks it has results of: a run that ended before them is n/a here (its eval's check
  // names are in conditions.json, which a row does not read), though the rate counts it failed.
  for (const c of checkOutcomes(record)) measures[`checks.${c.name}`] = c.passed;
  for (const c of record.message_checks ?? []) measures[`message_checks.${c.name}`] = c.passed;
  if (grading?.status === 'graded') measures['grading.all_passed'] = grading.all_passed;
  return {
    eval: record.eval,
    condition: record.condition,
    run: record.run,
    status: record.status,
    error: record.error ?? null,
    duration_ms: record.duration_ms,
    turns: record.turns_completed,
    agent: agentOf(record),
    flags: {
      failed_check: m.checks_passed === false,
      tampered: m.record_tampered,
      broken: record.status === 'broken' || m.environment_broken,
      timed_out: record.status === 'timed_out',
      judge_no: grading?.status === 'graded' && grading.all_passed === false,
      failed: record.status === 'failed',
    },
    measures,
    judge: grading ? { status: grading.status, all_passed: grading.all_passed } : null,
    review: review
      ? { verdict: review.verdict, note: review.note, updated_at: review.updated_at }
      : null,
  };
}

async function rowAt(outDir: string, dir: string, record: RunRecord): Promise<RunRow> {
  const [grading, review] = await Promise.all([
    readGrading(dir).catch(() => null),
    readReviewText(outDir, record.eval, record.condition, record.run),
  ]);
  return rowOf(record, grading, parseReviewFile(review, dir));
}

/** Every finished run's row, in the campaign's order, one at a time (memory flat in runs). */
export async function* runRows(outDir: string): AsyncGenerator<RunRow> {
  for await (const { entry, read } of readRuns(outDir)) {
    if (read.status !== 'ok') continue;
    yield await rowAt(outDir, entry.dir, read.value.record);
  }
}

/** One run's row, or null when it has not finished (no run.json yet). */
export async function runRow(
  outDir: string,
  evalId: string,
  condition: string,
  run: number,
): Promise<RunRow | null> {
  const dir = runFolder(outDir, evalId, condition, run);
  const record = await readRunRecord(dir).catch(() => null);
  return record === null ? null : rowAt(outDir, dir, record);
}
