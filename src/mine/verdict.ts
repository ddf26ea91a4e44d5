/**
 * Whether a candidate is a task, from its validation runs (their run.json records): at the
 * parent its touched tests fail and the others pass; the reference diff applies; then every
 * test passes. Every run must agree: one that differs marks a flaky test, and drops it.
 */

/** What a validation run's record holds that the verdict reads. */
export interface ValidationRun {
  readonly status: string;
  readonly error?: string;
  readonly duration_ms: number;
  readonly checks: ReadonlyArray<{
    readonly name: string;
    readonly passed: boolean;
    readonly duration_ms: number;
  }>;
}

/** Each check of the validation, what it must do, and what it means when it does not. */
const RULES: ReadonlyArray<{ name: string; passes: boolean; otherwise: string }> = [
  {
    name: 'fail_to_pass_at_parent',
    passes: false,
    otherwise: 'its tests already pass at the parent: nothing to do',
  },
  {
    name: 'pass_to_pass_at_parent',
    passes: true,
    otherwise: "the parent's other tests fail there",
  },
  {
    name: 'reference_applies',
    passes: true,
    otherwise: "the commit's change does not apply to its parent",
  },
  {
    name: 'fail_to_pass_at_commit',
    passes: true,
    otherwise: 'its tests fail with the commit applied',
  },
  {
    name: 'pass_to_pass_at_commit',
    passes: true,
    otherwise: 'the other tests fail with the commit applied',
  },
];

export type Verdict = { readonly kept: true } | { readonly kept: false; readonly reason: string };

/** The candidate's verdict from all its runs. */
export function validationVerdict(runs: readonly ValidationRun[]): Verdict {
  if (runs.length === 0) return { kept: false, reason: 'no validation run was recorded' };
  const failed = runs.find((r) => r.status !== 'completed');
  if (failed)
    return {
      kept: false,
      reason: `a validation run ended ${failed.status}${failed.error ? `: ${failed.error}` : ''}`,
    };
  for (const rule of RULES) {
    const outcomes = runs.map((r) => r.checks.find((c) => c.name === rule.name)?.passed);
    if (outcomes.some((o) => o === undefined))
      return { kept: false, reason: `a run has no result for ${rule.name}` };
    const right = outcomes.filter((o) => o === rule.passes).length;
    if (right === runs.length) continue;
    if (right > 0)
      return {
        kept: false,
        reason: `flaky: ${rule.name} ${rule.passes ? 'passed' : 'failed'} in ${right} of ${runs.length} runs`,
      };
    return { kept: false, reason: rule.otherwise };
  }
  return { kept: true };
}
