/**
 * Runs with check results, as the campaign records them: the results, and the measures the real
 * measureRun gives them (checks_passed among them). For the tests of each check's outcome.
 */
import type { CheckResult, RunRecord } from '../../src/artifacts/index.js';
import { measureRun, type MeasureInput } from '../../src/measure/index.js';

const NO_DIFF = {
  files_added: 0,
  files_modified: 0,
  files_deleted: 0,
  lines_added: 0,
  lines_removed: 0,
  untracked: 0,
};

/** One check's result: exit code 0 when it passed, 1 when not. */
export function checkResult(name: string, passed: boolean, output = ''): CheckResult {
  return {
    name,
    command: `npm run ${name}`,
    passed,
    exit_code: passed ? 0 : 1,
    duration_ms: 5,
    output,
    truncated: false,
  };
}

/** A run of an eval declaring two checks, with these results (none: it ended before them). */
export function checkedRun(
  checks: CheckResult[],
  over: Partial<MeasureInput> = {},
): Pick<RunRecord, 'status' | 'checks' | 'measures' | 'failure'> {
  const input: MeasureInput = {
    stops: [],
    checks,
    diff: NO_DIFF,
    turnsCompleted: 1,
    durationMs: 1000,
    stoppedAtHandOver: false,
    status: 'completed',
    allCalls: [],
    checksDeclared: 2,
    ...over,
  };
  return {
    status: input.status,
    checks,
    measures: measureRun(input),
    ...(over.failure ? { failure: { class: over.failure, reason: 'cut' } } : {}),
  };
}
