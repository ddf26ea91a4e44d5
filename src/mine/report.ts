/**
 * The mining's report, tasks-report.json and tasks-report.md beside the set: each candidate
 * kept or dropped and why, the commits that were never candidates, the test command, and what
 * the validation cost against running the tests alone.
 */
import type { Candidate, Dropped } from './candidates.js';
import type { TaskFiles } from './task-files.js';
import type { ValidationRun, Verdict } from './verdict.js';

export interface MiningReport {
  readonly json: ReturnType<typeof reportJson>;
  readonly markdown: string;
}

interface Input {
  readonly label: string;
  readonly testCommand: string;
  readonly validationOut: string;
  readonly runsEach: number;
  readonly verdicts: ReadonlyArray<{
    c: Candidate;
    t: TaskFiles;
    runs: readonly ValidationRun[];
    verdict: Verdict;
    rewrite?: { source: 'commit' | 'rewrite'; refused?: string } | undefined;
  }>;
  readonly dropped: readonly Dropped[];
  readonly timings: { mine_ms: number; validate_ms: number; total_ms: number };
}

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

function reportJson(i: Input) {
  const runs = i.verdicts.flatMap((v) => v.runs);
  const testsMs = sum(runs.flatMap((r) => r.checks.map((c) => c.duration_ms)));
  return {
    schema: 'evalrig/tasks-report@1',
    codebase: i.label,
    test_command: i.testCommand,
    validation_campaign: i.validationOut,
    runs_each: i.runsEach,
    candidates: i.verdicts.length,
    kept: i.verdicts.filter((v) => v.verdict.kept).length,
    tasks: i.verdicts.map((v) => ({
      id: v.t.id,
      commit: v.c.commit,
      parent: v.c.parent,
      subject: v.c.subject,
      fail_to_pass: v.t.failToPass,
      pass_to_pass: v.t.passToPass.length,
      reference_bytes: v.t.patchBytes,
      kept: v.verdict.kept,
      ...(v.verdict.kept ? {} : { reason: v.verdict.reason }),
      ...(v.rewrite
        ? {
            prompt: v.rewrite.source,
            ...(v.rewrite.refused ? { rewrite_refused: v.rewrite.refused } : {}),
          }
        : {}),
      validation_ms: sum(v.runs.map((r) => r.duration_ms)),
    })),
    not_candidates: i.dropped.map((d) => ({
      commit: d.commit,
      subject: d.subject,
      reason: d.reason,
    })),
    timings: {
      ...i.timings,
      validation_runs: runs.length,
      // What the runs spent in the tests themselves: the rest is the harness's.
      tests_ms: testsMs,
      per_candidate_ms: i.verdicts.length
        ? Math.round(i.timings.validate_ms / i.verdicts.length)
        : null,
    },
  };
}

function markdownOf(j: ReturnType<typeof reportJson>): string {
  const rows = j.tasks.map(
    (t) =>
      `| ${t.id} | ${t.subject.replaceAll('|', '\\|')} | ${t.fail_to_pass.length} | ${t.pass_to_pass} | ${t.kept ? 'kept' : `dropped: ${(t.reason ?? '').replaceAll('|', '\\|')}`} |`,
  );
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  return [
    `# Tasks mined from ${j.codebase}`,
    '',
    `${j.kept} of ${j.candidates} candidate(s) kept; ${j.not_candidates.length} commit(s) were no candidate (see tasks-report.json).`,
    `Test command: \`${j.test_command}\`. Each candidate validated in ${j.runs_each} run(s) of ${j.validation_campaign}.`,
    '',
    '| task | commit subject | fail-to-pass files | pass-to-pass files | verdict |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
    '',
    `Time: ${s(j.timings.total_ms)} in all; writing the tasks ${s(j.timings.mine_ms)}, validating ${s(j.timings.validate_ms)} (${j.timings.validation_runs} runs, ${s(j.timings.tests_ms)} of it in the tests themselves).`,
    '',
  ].join('\n');
}

export function miningReport(i: Input): MiningReport {
  const json = reportJson(i);
  return { json, markdown: markdownOf(json) };
}
